package dev.guard.grpc;

import dev.guard.api.Entry;
import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one end of one admitted call, on either side: whichever of its endings comes first (the
 * handler's close, a cancel, a deadline, an exception, the client's close) records the call's
 * outcome and exits its entry; every later ending does nothing. A compare-and-set decides which
 * ending is first, so endings racing on several threads exit the entry exactly once.
 */
final class CallEnd {

  private final Entry entry;
  private final Set<Status.Code> errorCodes;
  private final AtomicBoolean ended = new AtomicBoolean();

  CallEnd(Entry entry, Set<Status.Code> errorCodes) {
    this.entry = entry;
    this.errorCodes = errorCodes;
  }

  /**
   * Ends the call with this status, if nothing ended it yet: a status whose code is one of the
   * error codes is recorded as a failed call (its cause, else the status as an exception).
   *
   * @return whether this ending was the first
   */
  boolean end(Status status) {
    if (!ended.compareAndSet(false, true)) {
      return false;
    }
    try {
      if (errorCodes.contains(status.getCode())) {
        Throwable cause = status.getCause();
        entry.recordError(cause != null ? cause : status.asRuntimeException());
      }
    } finally {
      entry.close();
    }
    return true;
  }

  /** Ends the call as ended by an exception of the handler or listener: {@code UNKNOWN}. */
  boolean failed(Throwable thrown) {
    return end(Status.UNKNOWN.withCause(thrown));
  }

  boolean ended() {
    return ended.get();
  }
}
