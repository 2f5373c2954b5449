package dev.guard.internal;

import dev.guard.api.RefusedException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A guard's calls that outlive the thread that started them and end on a signal rather than on a
 * return, for adapters of asynchronous libraries (guard-reactor): one call is entered on every
 * part of the guard, detached from the thread, and exited once, on any thread, with its outcome
 * judged by the guard's exception filters and {@code failsWhen}. Not part of the API: the package
 * is exported to guard's own modules only.
 *
 * <p>An adapter asks a guard for its detached calls ({@code Guard.detachedCalls()}); this package
 * names nothing of the DSL's, so the DSL depends on it and not the other way round.
 */
public interface DetachedCalls {

  /**
   * Enters every part of the guard, detached from the calling thread; a refusal exits the parts
   * already entered and propagates. Pacing and borrowing wait on the calling thread, through the
   * engine's time source.
   *
   * @param args the call's arguments, for per-value rules (may hold nulls; empty for none)
   * @return the admitted call, to be ended exactly once
   * @throws RefusedException if a part refused the call
   */
  Detached enter(@Nullable Object[] args);

  /**
   * Tells whether entering may wait: a part is prioritized, or one of the resources' rules in
   * force now paces (a flow or per-value rule with {@code PACING} shaping). Read per call, since
   * rules change at run time.
   *
   * @return whether {@link #enter} may wait
   */
  boolean mayWait();

  /**
   * Tells whether the guard judges results ({@code failsWhen}); when not, {@link Detached#judge}
   * does nothing and need not be called.
   *
   * @return whether results are judged
   */
  boolean judgesResults();

  /**
   * Returns the guard's timeout ({@code Guard.timeout}): the adapter ends a call that has not
   * completed by then as failed with a {@link java.util.concurrent.TimeoutException}, and its
   * subscriber sees that failure.
   *
   * @return the timeout, or null when the guard has none
   */
  @Nullable Duration timeout();

  /** One admitted call: judge its results, then end it once. */
  interface Detached {

    /**
     * Judges one result of the call: a result the guard's {@code failsWhen} accepts marks the call
     * failed for that part (the call still ends only on {@link #end}).
     *
     * @param result the result
     */
    void judge(@Nullable Object result);

    /**
     * Ends the call, in reverse order of the parts: {@code failure}, when given, is recorded where
     * the parts' exception filters count it.
     *
     * @param failure what the call failed with; null for a call that completed or was cancelled
     */
    void end(@Nullable Throwable failure);
  }
}
