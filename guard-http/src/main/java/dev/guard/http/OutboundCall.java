package dev.guard.http;

import dev.guard.api.Entry;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One admitted outbound call, from {@link OutboundGate#enter}: finished exactly once, by whichever
 * of {@link #finish}, {@link #fail} or {@link #cancel} comes first, on any thread; later calls do
 * nothing and say so. So an adapter may race a response against a cancellation and still give the
 * call's place back once.
 *
 * <pre>{@code
 * OutboundCall call = gate.enter("GET", uri);
 * future.whenComplete((response, failure) -> {
 *   if (failure != null) call.fail(failure); else call.finish(response.statusCode());
 * });
 * // the caller cancels: call.cancel()
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class OutboundCall {

  private final Entry entry;
  private final HttpOutbound settings;
  private final AtomicBoolean finished = new AtomicBoolean();

  OutboundCall(Entry entry, HttpOutbound settings) {
    this.entry = entry;
    this.settings = settings;
  }

  /**
   * Returns the name of the resource the call entered.
   *
   * @return the resource name
   */
  public String resource() {
    return entry.resource();
  }

  /**
   * Finishes the call with the response's status: a status the settings count as an error (5xx by
   * default) records an error naming the status, then the call exits.
   *
   * @param status the response status code
   * @return whether this call finished it (false: it was already finished)
   */
  public boolean finish(int status) {
    if (!finished.compareAndSet(false, true)) {
      return false;
    }
    try {
      if (settings.isErrorStatus(status)) {
        entry.recordError(new HttpStatusException(entry.resource(), status));
      }
    } finally {
      entry.close();
    }
    return true;
  }

  /**
   * Finishes the call with the failure of its send (an I/O error, a timeout, a failing body
   * handler): the failure, unwrapped from a {@link CompletionException} or {@link
   * ExecutionException}, is recorded as the call's error, unless it is a cancellation or an
   * interrupt, which exit without one; then the call exits.
   *
   * @param failure what ended the send
   * @return whether this call finished it (false: it was already finished)
   */
  public boolean fail(Throwable failure) {
    Objects.requireNonNull(failure, "failure");
    if (!finished.compareAndSet(false, true)) {
      return false;
    }
    try {
      Throwable wrapped = failure.getCause();
      Throwable cause = (failure instanceof CompletionException
          || failure instanceof ExecutionException) && wrapped != null ? wrapped : failure;
      if (!(cause instanceof CancellationException) && !(cause instanceof InterruptedException)) {
        entry.recordError(cause);
      }
    } finally {
      entry.close();
    }
    return true;
  }

  /**
   * Finishes the call without an outcome, because the caller gave up on it (cancelled it) before
   * its response: it exits without an error.
   *
   * @return whether this call finished it (false: it was already finished)
   */
  public boolean cancel() {
    if (!finished.compareAndSet(false, true)) {
      return false;
    }
    entry.close();
    return true;
  }

  /**
   * Tells whether the call was finished, by any of the three ways.
   *
   * @return whether it was finished
   */
  public boolean finished() {
    return finished.get();
  }

  @Override
  public String toString() {
    return "OutboundCall[" + entry.resource() + (finished.get() ? ", finished]" : "]");
  }
}
