package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.FlowMetrics;
import dev.guard.engine.internal.stat.WindowGeometry;

import java.util.Map;
import java.util.TreeMap;

/**
 * A stand-in for a node's statistics: it records admitted passes at engine times and answers the
 * two reads the controllers make, as the default windows would.
 *
 * <ul>
 *   <li>{@code passQps(now)}: passes in the current and the previous 500 ms bucket, up to {@code
 *       now} (the default 2 × 500 ms second window, interval 1 s);
 *   <li>{@code previousPassQps(now)}: passes in the previous whole second.
 * </ul>
 *
 * Passes recorded at a future time (after a pacing wait) are only seen once the clock reaches them.
 */
final class FakeFlowMetrics implements FlowMetrics {

  private final TreeMap<Long, Long> passesByMs = new TreeMap<>();

  /** Records {@code permits} passes at engine time {@code ms}. */
  void recordPass(long ms, long permits) {
    passesByMs.merge(ms, permits, Long::sum);
  }

  @Override
  public double passQps(long nowMs) {
    long bucketStart = nowMs - nowMs % 500;
    return sum(bucketStart - 500, nowMs + 1);
  }

  @Override
  public double previousPassQps(long nowMs) {
    long second = nowMs - nowMs % 1000;
    return sum(second - 1000, second);
  }

  @Override
  public long concurrency() {
    return 0;
  }

  private long sum(long fromInclusive, long toExclusive) {
    long total = 0;
    for (Map.Entry<Long, Long> e : passesByMs.subMap(fromInclusive, toExclusive).entrySet()) {
      total += e.getValue();
    }
    return total;
  }

  @Override
  public WindowGeometry secondGeometry() {
    return WindowGeometry.SECOND_DEFAULT;
  }

  @Override
  public long tryOccupyNext(long nowMs, int permits, double threshold, long occupyTimeoutMs) {
    return occupyTimeoutMs; // this fake never lends a future bucket
  }
}
