package dev.guard.grpc;

import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Calls without a transport, for driving the interceptors' endings directly from many threads:
 * a server call and a handler that keeps what the interceptor hands it, and a channel whose
 * calls keep their listener.
 */
final class FakeCalls {

  private FakeCalls() {}

  /** A server call of {@link EchoService#CHAT} that counts its closes. */
  static final class Server extends ServerCall<String, String> {
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public void request(int numMessages) {}

    @Override
    public void sendHeaders(Metadata headers) {}

    @Override
    public void sendMessage(String message) {}

    @Override
    public void close(Status status, Metadata trailers) {
      closes.incrementAndGet();
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public Attributes getAttributes() {
      return Attributes.EMPTY;
    }

    @Override
    public MethodDescriptor<String, String> getMethodDescriptor() {
      return EchoService.CHAT;
    }
  }

  /** A handler that keeps the call it was started with; its listener throws on half-close. */
  static final class Handler implements ServerCallHandler<String, String> {
    volatile @Nullable ServerCall<String, String> call;

    @Override
    public ServerCall.Listener<String> startCall(ServerCall<String, String> started,
        Metadata headers) {
      call = started;
      return new ServerCall.Listener<>() {
        @Override
        public void onHalfClose() {
          throw new IllegalStateException("the handler failed");
        }
      };
    }
  }

  /** A client call that keeps the listener it was started with. */
  static final class Client extends ClientCall<String, String> {
    volatile @Nullable Listener<String> listener;
    final AtomicInteger cancels = new AtomicInteger();

    @Override
    public void start(Listener<String> responseListener, Metadata headers) {
      listener = responseListener;
    }

    @Override
    public void request(int numMessages) {}

    @Override
    public void cancel(@Nullable String message, @Nullable Throwable cause) {
      cancels.incrementAndGet();
    }

    @Override
    public void halfClose() {}

    @Override
    public void sendMessage(String message) {}
  }

  /** A channel whose every call is the given client call. */
  static Channel channel(Client call) {
    return new Channel() {
      @Override
      @SuppressWarnings("unchecked")
      public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
        return (ClientCall<Q, R>) call;
      }

      @Override
      public String authority() {
        return "fake";
      }
    };
  }
}
