package dev.guard.grpc;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardedResource;
import io.grpc.ClientCall;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One client call under guard: {@link #start} enters the resource; a refused call is closed at
 * once with the refusal's status (nothing is sent, the next call in the chain is never started,
 * and every later method does nothing); an admitted call ends its entry once, at the first of its
 * close (its status) and the caller's cancel ({@code CANCELLED}), or when starting it throws.
 */
final class GuardedClientCall<Q, R> extends ForwardingClientCall.SimpleForwardingClientCall<Q, R> {

  private final GuardedResource resource;
  private final Function<Metadata, @Nullable Object[]> arguments;
  private final Function<? super RefusedException, Status> refusalStatus;
  private final Set<Status.Code> errorCodes;
  private volatile @Nullable CallEnd end;
  private volatile boolean refused;

  GuardedClientCall(ClientCall<Q, R> delegate, GuardedResource resource,
      Function<Metadata, @Nullable Object[]> arguments,
      Function<? super RefusedException, Status> refusalStatus, Set<Status.Code> errorCodes) {
    super(delegate);
    this.resource = resource;
    this.arguments = arguments;
    this.refusalStatus = refusalStatus;
    this.errorCodes = errorCodes;
  }

  @Override
  public void start(Listener<R> listener, Metadata headers) {
    @Nullable Object[] args = Objects.requireNonNull(arguments.apply(headers), "arguments");
    Entry entry;
    try {
      entry = resource.enterAsync(args);
    } catch (RefusedException refusal) {
      refused = true;
      Status status = Objects.requireNonNull(refusalStatus.apply(refusal), "refusal status");
      listener.onClose(status, GrpcStatuses.trailers(refusal));
      return;
    }
    CallEnd ending = new CallEnd(entry, errorCodes);
    end = ending;
    try {
      super.start(new Ending<>(listener, ending), headers);
    } catch (RuntimeException | Error thrown) {
      ending.failed(thrown);
      throw thrown;
    }
  }

  @Override
  public void cancel(@Nullable String message, @Nullable Throwable cause) {
    if (refused) {
      return;
    }
    CallEnd ending = end;
    if (ending != null) {
      ending.end(Status.CANCELLED);
    }
    super.cancel(message, cause);
  }

  @Override
  public void request(int numMessages) {
    if (!refused) {
      super.request(numMessages);
    }
  }

  @Override
  public void sendMessage(Q message) {
    if (!refused) {
      super.sendMessage(message);
    }
  }

  @Override
  public void halfClose() {
    if (!refused) {
      super.halfClose();
    }
  }

  @Override
  public boolean isReady() {
    return !refused && super.isReady();
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    if (!refused) {
      super.setMessageCompression(enabled);
    }
  }

  /** The caller's listener: the call's close ends the entry before the caller hears of it. */
  private static final class Ending<R>
      extends ForwardingClientCallListener.SimpleForwardingClientCallListener<R> {

    private final CallEnd end;

    Ending(Listener<R> delegate, CallEnd end) {
      super(delegate);
      this.end = end;
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      end.end(status);
      super.onClose(status, trailers);
    }
  }
}
