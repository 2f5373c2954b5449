package dev.guard.engine.internal.stat;

import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;

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

  /**
   * The shape of the second-level window, for controllers that budget its buckets.
   *
   * @return the window geometry
   */
  WindowGeometry secondGeometry();

  /**
   * How long a prioritized call would wait to borrow {@code permits} passes from the next bucket
   * without the window exceeding {@code threshold} (see {@link StatisticNode#tryOccupyNext}).
   *
   * @param nowMs engine time in milliseconds
   * @param permits the permits to borrow
   * @param threshold the rule's rate
   * @param occupyTimeoutMs the longest wait allowed
   * @return the wait in milliseconds; {@code occupyTimeoutMs} or more when borrowing is impossible
   */
  long tryOccupyNext(long nowMs, int permits, double threshold, long occupyTimeoutMs);
}
