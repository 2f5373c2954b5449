package dev.guard.engine.internal.flow;

/**
 * The statistics a traffic-shaping controller reads from the node its rule selected. Times are
 * engine milliseconds (non-negative, relative to the engine's start).
 */
public interface FlowMetrics {

  /**
   * Passed calls per second over the second-level window at {@code nowMs}.
   *
   * @param nowMs engine time in milliseconds
   * @return the pass rate
   */
  double passQps(long nowMs);

  /**
   * Passed calls in the previous whole second (from the minute-level window).
   *
   * @param nowMs engine time in milliseconds
   * @return the previous second's pass count
   */
  double previousPassQps(long nowMs);

  /**
   * Calls running now on this node.
   *
   * @return the live concurrency gauge
   */
  long concurrency();
}
