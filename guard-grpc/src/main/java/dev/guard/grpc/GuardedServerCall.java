package dev.guard.grpc;

import dev.guard.api.RefusedException;
import dev.guard.engine.GuardedResource;
import io.grpc.Deadline;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * An admitted server call: the handler closes it through this wrapper, and its listener is
 * wrapped by {@link Listener}; both end the call's entry through one {@link CallEnd}, so the call
 * exits once, whichever ends it first: the handler's {@code close} (its status), a cancel
 * ({@code CANCELLED}, or {@code DEADLINE_EXCEEDED} when the call's deadline has passed), an
 * exception of the handler ({@code UNKNOWN}; a {@link RefusedException} is answered with its
 * refusal status instead, with no error), or the transport's completion ({@code OK}). The exit
 * is recorded before the close goes on to the transport, so a client that sees the status sees
 * the place free.
 */
final class GuardedServerCall<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {

  final CallEnd end;
  private final Function<? super RefusedException, Status> refusalStatus;

  GuardedServerCall(ServerCall<Q, R> call, CallEnd end,
      Function<? super RefusedException, Status> refusalStatus) {
    super(call);
    this.end = end;
    this.refusalStatus = refusalStatus;
  }

  @Override
  public void close(Status status, Metadata trailers) {
    end.end(status);
    super.close(status, trailers);
  }

  /**
   * Answers a refusal the handler let escape (a guarded call inside it was refused) as guard
   * answers its own: the refusal's status and pushback trailer, the call ending with no error of
   * its own, as guard-http answers a refusal met inside the handler. Does nothing when the call
   * had already ended (the handler closed it, or it was cancelled).
   *
   * @return whether the refusal was answered
   */
  boolean answerRefusal(RefusedException nested) {
    if (!end.end(Status.OK)) {
      return false;
    }
    Status status = Objects.requireNonNull(refusalStatus.apply(nested), "refusal status");
    super.close(status, GrpcStatuses.trailers(nested));
    return true;
  }

  /**
   * The handler's listener, each callback run in the call's context (entrance and origin) so
   * that guarded calls the handler makes are measured under them.
   */
  static final class Listener<Q> extends ForwardingServerCallListener.SimpleForwardingServerCallListener<Q> {

    private final GuardedResource resource;
    private final GuardedServerCall<Q, ?> call;
    private final CallEnd end;
    private final @Nullable Deadline deadline;

    Listener(ServerCall.Listener<Q> delegate, GuardedResource resource,
        GuardedServerCall<Q, ?> call, @Nullable Deadline deadline) {
      super(delegate);
      this.resource = resource;
      this.call = call;
      this.end = call.end;
      this.deadline = deadline;
    }

    /** A callback's exception: a refusal is answered, anything else ends the call as UNKNOWN. */
    private void thrown(RuntimeException thrown) {
      if (thrown instanceof RefusedException nested && call.answerRefusal(nested)) {
        return;
      }
      end.failed(thrown);
      throw thrown;
    }

    @Override
    public void onMessage(Q message) {
      GuardedResource.ContextScope scope = resource.openContext();
      try {
        super.onMessage(message);
      } catch (RuntimeException thrown) {
        thrown(thrown);
      } catch (Error thrown) {
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
      } catch (RuntimeException thrown) {
        thrown(thrown);
      } catch (Error thrown) {
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
      } catch (RuntimeException thrown) {
        thrown(thrown);
      } catch (Error thrown) {
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
