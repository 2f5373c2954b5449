package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.FlowMetrics;
import org.jspecify.annotations.Nullable;

/**
 * Decides, for one flow rule, whether a call may pass now, after a wait, or not at all.
 *
 * <p>A controller is a pure decision step: it reads its private state and the selected node's
 * metrics at the given time and returns a {@link Decision}; it never reads a clock and never
 * sleeps. The flow slot performs any wait through the engine's time source. Implementations are
 * thread-safe and lock-free, and allocate nothing per decision.
 *
 * <p>Times: {@code nowNanos} and {@code nowMs} are the same instant in engine time (non-negative,
 * measured from the engine's start; {@code nowMs == nowNanos / 1_000_000}).
 */
public interface TrafficShapingController {

  /**
   * Decides one call.
   *
   * @param node the statistics of the node the rule selected
   * @param permits the permits the call asks for (usually 1)
   * @param prioritized whether the call may borrow from a future window
   * @param nowNanos engine time in nanoseconds
   * @param nowMs engine time in milliseconds
   * @return a {@link Decision}
   */
  long decide(FlowMetrics node, int permits, boolean prioritized, long nowNanos, long nowMs);

  /**
   * Tells whether decisions need the time to the nanosecond (pacing). Others are given the
   * engine's cheaper, millisecond-precise reading.
   *
   * @return whether {@code nowNanos} must be a precise reading
   */
  default boolean needsPreciseTime() {
    return false;
  }

  /**
   * Gives back what an admitting decision with a wait reserved, because the call did not get
   * through after all: its wait was interrupted, or a later rule refused it once the wait was
   * over. Called at most once per such decision.
   *
   * @param decision the decision returned by {@link #decide}
   * @param permits the permits of that call
   */
  default void cancel(long decision, int permits) {}

  /**
   * Gives back what an immediate {@link Decision#PASS} took from the controller's state, because a
   * later rule refused the call. Called at most once per such decision.
   *
   * @param permits the permits of that call
   * @param decidedAtMs the {@code nowMs} of the decision
   */
  default void refund(int permits, long decidedAtMs) {}

  /**
   * How long from {@code nowNanos} until a retry of a refused single-permit call could pass, read
   * only when a refusal is asked for it (never on the call path); see docs/BEHAVIOUR.md, "Retry
   * after".
   *
   * @param nowNanos engine time in nanoseconds
   * @param bucketLengthMs the length of a bucket of the second-level window
   * @return the wait in nanoseconds, or a negative value when unknown
   */
  default long retryAfterNanos(long nowNanos, int bucketLengthMs) {
    return -1L;
  }

  /**
   * How many more single-permit calls the rule would admit if they arrived now (with no wait
   * longer than the rule allows), read only for budget reports (never on the call path); see
   * docs/BEHAVIOUR.md, "Budget".
   *
   * @param node the statistics the rule measures, or null when it has none yet
   * @param nowNanos engine time in nanoseconds
   * @param nowMs engine time in milliseconds
   * @return the calls, or a negative value when the rule has no such budget (concurrency)
   */
  default long remaining(@Nullable FlowMetrics node, long nowNanos, long nowMs) {
    return -1L;
  }

  /**
   * How long from {@code nowNanos} until the rule's budget grows again (the oldest passes leave
   * the window; a pacing queue empties), read only for budget reports.
   *
   * @param nowNanos engine time in nanoseconds
   * @param bucketLengthMs the length of a bucket of the second-level window
   * @return the time in nanoseconds, at least 0
   */
  default long resetNanos(long nowNanos, int bucketLengthMs) {
    return 0L;
  }
}
