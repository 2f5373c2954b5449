package dev.guard.grpc;

import dev.guard.engine.GuardedResource;
import io.grpc.Deadline;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import org.jspecify.annotations.Nullable;

/**
 * An admitted server call: the handler closes it through this wrapper, and its listener is
 * wrapped by {@link Listener}; both end the call's entry through one {@link CallEnd}, so the call
 * exits once, whichever ends it first: the handler's {@code close} (its status), a cancel
 * ({@code CANCELLED}, or {@code DEADLINE_EXCEEDED} when the call's deadline has passed), an
 * exception of the handler ({@code UNKNOWN}), or the transport's completion ({@code OK}). The exit
 * is recorded before the close goes on to the transport, so a client that sees the status sees
 * the place free.
 */
final class GuardedServerCall<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {

  private final CallEnd end;

  GuardedServerCall(ServerCall<Q, R> call, CallEnd end) {
    super(call);
    this.end = end;
  }

  @Override
  public void close(Status status, Metadata trailers) {
    end.end(status);
    super.close(status, trailers);
  }

  /**
   * The handler's listener, each callback run in the call's context (entrance and origin) so
   * that guarded calls the handler makes are measured under them.
   */
  static final class Listener<Q> extends ForwardingServerCallListener.SimpleForwardingServerCallListener<Q> {

    private final GuardedResource resource;
    private final CallEnd end;
    private final @Nullable Deadline deadline;

    Listener(ServerCall.Listener<Q> delegate, GuardedResource resource, CallEnd end,
        @Nullable Deadline deadline) {
      super(delegate);
      this.resource = resource;
      this.end = end;
      this.deadline = deadline;
    }

    @Override
    public void onMessage(Q message) {
      GuardedResource.ContextScope scope = resource.openContext();
      try {
        super.onMessage(message);
      } catch (RuntimeException | Error thrown) {
        end.failed(thrown);
        throw thrown;
      } finally {
        scope.close();
      }
    }

    @Override
    public void onHalfClose() {
      GuardedResource.ContextScope scope = resource.openContext();
      try {
        super.onHalfClose();
      } catch (RuntimeException | Error thrown) {
        end.failed(thrown);
        throw thrown;
      } finally {
        scope.close();
      }
    }

    @Override
    public void onReady() {
      GuardedResource.ContextScope scope = resource.openContext();
      try {
        super.onReady();
      } catch (RuntimeException | Error thrown) {
        end.failed(thrown);
        throw thrown;
      } finally {
        scope.close();
      }
    }

    @Override
    public void onCancel() {
      Deadline due = deadline;
      end.end(due != null && due.isExpired() ? Status.DEADLINE_EXCEEDED : Status.CANCELLED);
      GuardedResource.ContextScope scope = resource.openContext();
      try {
        super.onCancel();
      } finally {
        scope.close();
      }
    }

    @Override
    public void onComplete() {
      end.end(Status.OK);
      GuardedResource.ContextScope scope = resource.openContext();
      try {
        super.onComplete();
      } finally {
        scope.close();
      }
    }
  }
}
