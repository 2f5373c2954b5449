package dev.guard.engine.internal.flow;

/**
 * The outcome of one controller decision, encoded in a {@code long} so the decision path allocates
 * nothing.
 *
 * <ul>
 *   <li>{@link #REFUSE}: refuse now;
 *   <li>{@link #PASS} (0): admit now;
 *   <li>a positive value {@code w}: admit after waiting {@code w} nanoseconds (pacing);
 *   <li>a negative value other than {@link #REFUSE}: admit after waiting {@code -value}
 *       nanoseconds on a pass borrowed from a future bucket (prioritized borrowing; the pass was
 *       already accounted for by the borrowing, so statistics record no pass at entry).
 * </ul>
 */
public final class Decision {

  /** Refuse the call. */
  public static final long REFUSE = Long.MIN_VALUE;

  /** Admit the call now. */
  public static final long PASS = 0L;

  private Decision() {}

  /**
   * Admit after a wait; a wait of 0 or less is {@link #PASS}.
   *
   * @param nanos the wait in nanoseconds
   * @return the decision
   */
  public static long waitThenPass(long nanos) {
    return Math.max(0L, nanos);
  }

  /**
   * Admit after a wait on a borrowed future pass.
   *
   * @param nanos the wait in nanoseconds; positive
   * @return the decision
   */
  public static long borrowThenPass(long nanos) {
    return -Math.max(1L, nanos);
  }

  /**
   * Tells whether the call is admitted (now or after a wait).
   *
   * @param decision a decision
   * @return true unless it is {@link #REFUSE}
   */
  public static boolean admits(long decision) {
    return decision != REFUSE;
  }

  /**
   * Tells whether the admission rests on a borrowed future pass.
   *
   * @param decision a decision
   * @return true for a borrowing decision
   */
  public static boolean borrowed(long decision) {
    return decision < 0 && decision != REFUSE;
  }

  /**
   * Returns the wait before admission in nanoseconds (0 for {@link #PASS} and {@link #REFUSE}).
   *
   * @param decision a decision
   * @return the wait in nanoseconds
   */
  public static long waitNanos(long decision) {
    if (decision == REFUSE) {
      return 0L;
    }
    return decision < 0 ? -decision : decision;
  }
}
