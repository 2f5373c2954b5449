package dev.guard.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A gRPC service of the four call shapes on plain strings (no generated code), whose handlers do
 * what the request says: echo, fail, answer a status, or hang until the test ends the call.
 */
final class EchoService {

  static final String SERVICE = "test.Echo";

  static final MethodDescriptor.Marshaller<String> STRINGS = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(String value) {
      return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String parse(InputStream stream) {
      try {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  static final MethodDescriptor<String, String> UNARY = method("Unary",
      MethodDescriptor.MethodType.UNARY);
  static final MethodDescriptor<String, String> DOWNLOAD = method("Download",
      MethodDescriptor.MethodType.SERVER_STREAMING);
  static final MethodDescriptor<String, String> UPLOAD = method("Upload",
      MethodDescriptor.MethodType.CLIENT_STREAMING);
  static final MethodDescriptor<String, String> CHAT = method("Chat",
      MethodDescriptor.MethodType.BIDI_STREAMING);

  /** How many handlers were started, of every method. */
  final AtomicInteger started = new AtomicInteger();
  /** What the unary handler does first (a guarded call of its own, say). */
  volatile Runnable nested = () -> {};
  /** The calls a handler holds open ("hang"), for the test to end. */
  final BlockingQueue<ServerCallStreamObserver<String>> hanging = new LinkedBlockingQueue<>();

  private static MethodDescriptor<String, String> method(String name,
      MethodDescriptor.MethodType type) {
    return MethodDescriptor.<String, String>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
        .setRequestMarshaller(STRINGS)
        .setResponseMarshaller(STRINGS)
        .build();
  }

  ServerServiceDefinition definition() {
    return ServerServiceDefinition.builder(SERVICE)
        .addMethod(UNARY, ServerCalls.asyncUnaryCall(this::unary))
        .addMethod(DOWNLOAD, ServerCalls.asyncServerStreamingCall(this::download))
        .addMethod(UPLOAD, ServerCalls.asyncClientStreamingCall(this::upload))
        .addMethod(CHAT, ServerCalls.asyncBidiStreamingCall(this::chat))
        .build();
  }

  /** "throw": the handler throws; "status:CODE": it answers that status; "hang": it holds on. */
  private void unary(String request, StreamObserver<String> out) {
    started.incrementAndGet();
    nested.run();
    if (request.equals("throw")) {
      throw new IllegalStateException("the handler failed");
    }
    if (request.startsWith("status:")) {
      out.onError(Status.Code.valueOf(request.substring(7)).toStatus().asRuntimeException());
      return;
    }
    if (request.equals("hang")) {
      hanging.add((ServerCallStreamObserver<String>) out);
      return;
    }
    out.onNext("echo:" + request);
    out.onCompleted();
  }

  /** A number n: n messages, then the end; "hang": one message, then it holds on. */
  private void download(String request, StreamObserver<String> out) {
    started.incrementAndGet();
    if (request.equals("hang")) {
      out.onNext("first");
      hanging.add((ServerCallStreamObserver<String>) out);
      return;
    }
    int n = Integer.parseInt(request);
    for (int i = 0; i < n; i++) {
      out.onNext("part " + i);
    }
    out.onCompleted();
  }

  /** Counts the messages; answers the count when the client half-closes. */
  private StreamObserver<String> upload(StreamObserver<String> out) {
    started.incrementAndGet();
    AtomicInteger count = new AtomicInteger();
    return new StreamObserver<>() {
      @Override
      public void onNext(String value) {
        count.incrementAndGet();
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        out.onNext(Integer.toString(count.get()));
        out.onCompleted();
      }
    };
  }

  /**
   * Echoes each message; "fail" answers INTERNAL; ends when the client half-closes, unless it
   * was sent "hold": then it holds on until the test ends the call.
   */
  private StreamObserver<String> chat(StreamObserver<String> out) {
    started.incrementAndGet();
    hanging.add((ServerCallStreamObserver<String>) out);
    AtomicBoolean hold = new AtomicBoolean();
    return new StreamObserver<>() {
      @Override
      public void onNext(String value) {
        if (value.equals("hold")) {
          hold.set(true);
        } else if (value.equals("fail")) {
          out.onError(Status.INTERNAL.withDescription("chat failed").asRuntimeException());
        } else {
          out.onNext("echo:" + value);
        }
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        if (!hold.get()) {
          out.onCompleted();
        }
      }
    };
  }
}
