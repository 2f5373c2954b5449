package dev.guard.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Client-side helpers of the tests: calls with metadata, and the failure a call ends with. */
final class Calls {

  private Calls() {}

  static String unary(Channel channel, String request) {
    return ClientCalls.blockingUnaryCall(channel, EchoService.UNARY, CallOptions.DEFAULT, request);
  }

  static String unary(Channel channel, String request, Map<String, String> metadata) {
    return unary(withMetadata(channel, metadata), request);
  }

  static Channel withMetadata(Channel channel, Map<String, String> metadata) {
    Metadata headers = new Metadata();
    metadata.forEach((k, v) -> headers.put(Metadata.Key.of(k, Metadata.ASCII_STRING_MARSHALLER), v));
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** The exception a call ends with; fails when it succeeds. */
  static StatusRuntimeException failure(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e;
    }
    throw new AssertionError("the call succeeded");
  }

  static @Nullable String pushback(StatusRuntimeException e) {
    Metadata trailers = e.getTrailers();
    assertThat(trailers).as("trailers").isNotNull();
    return trailers.get(GrpcStatuses.RETRY_PUSHBACK_MS);
  }
}
