package dev.guard.engine.internal.pervalue;

import org.jspecify.annotations.Nullable;

/**
 * How a per-value rule admits the calls of one value, from that value's {@link ValueState}:
 * a token bucket, a pacing schedule or a concurrency counter. Gates hold only the rule's settings
 * and are shared by all threads; every decision is one compare-and-set on the value's state, so
 * the pass path takes no lock and allocates nothing.
 *
 * <p>Time is engine time in nanoseconds: the coarse reading for token buckets (which work in
 * milliseconds), the precise one for pacing ({@link #precise()}).
 */
abstract class ValueGate {

  /** {@link #take} result: the call is refused for this value. */
  static final long REFUSED = -1;

  /** {@link #take} result: the state was retired meanwhile; look the value up again. */
  static final long RETIRED = -2;

  /** Whether decisions need the precise clock reading. */
  boolean precise() {
    return false;
  }

  /** Whether an admitted call holds something until it exits (a concurrency slot). */
  boolean releasesAtExit() {
    return false;
  }

  /**
   * The state of a value seen for the first time.
   *
   * @param threshold the value's threshold
   * @param nowNanos engine time
   * @return the state's initial bits
   */
  abstract long initialBits(int threshold, long nowNanos);

  /**
   * Tells, without changing anything, whether a call would be admitted now.
   *
   * @param state the value's state, or null if the value is not known yet
   * @param threshold the value's threshold
   * @param permits the call's permits
   * @param nowNanos engine time
   * @return whether {@link #take} would admit the call
   */
  abstract boolean admits(@Nullable ValueState state, int threshold, int permits, long nowNanos);

  /**
   * Admits a call and takes what it needs from the value's state, or refuses it.
   *
   * @param state the value's state
   * @param permits the call's permits
   * @param nowNanos engine time
   * @return 0 to admit now, a positive wait in nanoseconds to admit after it, {@link #REFUSED}, or
   *     {@link #RETIRED}
   */
  abstract long take(ValueState state, int permits, long nowNanos);

  /**
   * Gives back what {@link #take} took for a call that will not run, or (for {@link
   * #releasesAtExit()} gates) that ended.
   *
   * @param state the value's state
   * @param permits the call's permits
   */
  abstract void giveBack(ValueState state, int permits);

  /**
   * How long until a refused call of a value could be admitted.
   *
   * @param state the value's state, or null if unknown
   * @param threshold the value's threshold
   * @param permits the call's permits
   * @param nowNanos engine time
   * @return the wait in nanoseconds, or negative when it cannot be told
   */
  abstract long retryAfterNanos(
      @Nullable ValueState state, int threshold, int permits, long nowNanos);

  /**
   * Marks a state the table is about to forget as retired, unless it must be kept (a value with
   * calls running). A retired state never admits again.
   *
   * @param state the state
   * @return whether the state may be forgotten
   */
  boolean retire(ValueState state) {
    return true;
  }

  /**
   * Tells whether a state was retired.
   *
   * @param state the state
   * @return whether it is retired
   */
  boolean retired(ValueState state) {
    return false;
  }

  /** Whether the table must ask {@link #retire} about each state before forgetting it. */
  boolean keepsBusyValues() {
    return false;
  }
}
