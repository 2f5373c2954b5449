package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.FlowMetrics;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Pacing (leaky bucket with a queue bound): admitted calls are spaced {@code 1 / r} seconds apart
 * per permit, where {@code r} is the rate of a {@link RateSource} (the rule's count, or a warm-up
 * rate: {@code count / coldFactor} when cold, {@code count} when warm), and a call that would have
 * to wait longer than {@code maxQueueingTime} is refused at once. Example (count 10, warm-up 10 s,
 * factor 3): cold spacing 300 ms, warm 100 ms.
 *
 * <p>A call asking for {@code permits} costs {@code round(1e9 · permits / r)} nanoseconds of the
 * schedule; {@link PacingSchedule} describes the reservation and its invariants. A burst of
 * simultaneous calls therefore receives waits {@code 0, cost, 2·cost, …} up to {@code
 * maxQueueingTime} inclusive, and the rest are refused. An idle period gives no credit beyond
 * "pass now". The node's statistics are not consulted and {@code prioritized} is ignored.
 *
 * <p>Rules: {@code permits ≤ 0} passes; {@code count == 0} refuses every other call; {@code
 * maxQueueingTime == 0} means strict spacing (an early call is refused, none waits).
 *
 * <p><b>Differences from Sentinel.</b>
 *
 * <ul>
 *   <li>Nanosecond arithmetic for every count: exact above 1000/s (count 2000 gives 0.5 ms) and
 *       below 1/s (count 0.4 gives 2.5 s; Sentinel divides by {@code round(count) = 0} and throws
 *       while loading the rule, Q8). Sentinel works in milliseconds and switches to {@code
 *       System.nanoTime} only for some counts.
 *   <li>The slot is reserved with one compare-and-set, never added and then undone.
 *   <li>The first call passes with no wait whatever the clock origin (Sentinel starts from −1 ms).
 *   <li>The controller never sleeps: it returns the wait and the flow slot waits through the
 *       engine's time source; {@link #cancel} gives the slot back when that wait is abandoned.
 * </ul>
 *
 * <p>Thread-safe and lock-free; a decision allocates nothing.
 */
final class PacingController implements TrafficShapingController {

  private final RateSource rate;
  private final long maxQueueingNanos;
  private final PacingSchedule schedule = new PacingSchedule();

  /**
   * Creates a pacing controller.
   *
   * @param rate the rate source
   * @param maxQueueingTime the longest a call may wait; zero or positive
   * @throws IllegalArgumentException if a value is out of range
   * @throws NullPointerException if {@code maxQueueingTime} is null
   */
  PacingController(RateSource rate, Duration maxQueueingTime) {
    this.rate = rate;
    this.maxQueueingNanos =
        ShapingChecks.cappedNanos(ShapingChecks.notNegative("maxQueueingTime", maxQueueingTime));
  }

  @Override
  public boolean needsPreciseTime() {
    return true;
  }

  @Override
  public long decide(FlowMetrics node, int permits, boolean prioritized, long nowNanos, long nowMs) {
    if (permits <= 0) {
      return Decision.PASS;
    }
    if (rate.count() <= 0) {
      return Decision.REFUSE;
    }
    long cost = ShapingChecks.spacingNanos(permits, rate.rate(node, nowMs));
    return schedule.reserve(cost, maxQueueingNanos, nowNanos);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Moves the schedule back by the call's cost at the current rate (a warm-up rate changes at
   * most once a second, so this is normally the cost that was reserved). When the abandoned slot
   * was the latest one (a single abandoned waiter, or the last of a queue) the schedule is exactly
   * as if the call had never been made. When later calls already hold slots, the next new caller takes over the freed
   * capacity and may be admitted at the same instant as the last queued call: the rate over the
   * queue stays within {@code count}, but that one pair of calls is closer than the spacing.
   */
  @Override
  public void cancel(long decision, int permits) {
    if (decision > 0 && permits > 0 && rate.count() > 0) {
      schedule.release(ShapingChecks.spacingNanos(permits, rate.lastRate()));
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Until a call would fit in the queue: {@code latest + cost − maxQueueingTime − now}, at
   * least 0, with {@code cost} the spacing of one permit at the current rate; unknown for a count
   * of 0.
   */
  @Override
  public long retryAfterNanos(long nowNanos, int bucketLengthMs) {
    double current = rate.lastRate();
    if (rate.count() <= 0 || current <= 0) {
      return -1L;
    }
    long latest = schedule.latestSlotNanos();
    if (latest == Long.MIN_VALUE) {
      return 0L;
    }
    long cost = ShapingChecks.spacingNanos(1, current);
    return Math.max(0L, latest + cost - maxQueueingNanos - nowNanos);
  }

  /**
   * {@inheritDoc}
   *
   * <p>With {@code c} the spacing of one call, {@code M} the longest wait and {@code L} the latest
   * slot (taken as {@code now − c} when the schedule is idle): the {@code j}-th next call waits
   * {@code L + j·c − now}, so {@code ⌊(M + now − L) / c⌋} more calls are admitted.
   */
  @Override
  public long remaining(@Nullable FlowMetrics node, long nowNanos, long nowMs) {
    double current = rate.lastRate();
    if (rate.count() <= 0 || current <= 0) {
      return 0L;
    }
    long cost = Math.max(1L, ShapingChecks.spacingNanos(1, current));
    long latest = schedule.latestSlotNanos();
    long effective = latest == Long.MIN_VALUE || nowNanos - latest >= cost ? nowNanos - cost : latest;
    long room = maxQueueingNanos + (nowNanos - effective);
    return room < 0 ? 0L : room / cost;
  }

  /** {@inheritDoc} <p>Until the queue is empty: the latest slot plus one spacing. */
  @Override
  public long resetNanos(long nowNanos, int bucketLengthMs) {
    double current = rate.lastRate();
    long latest = schedule.latestSlotNanos();
    if (rate.count() <= 0 || current <= 0 || latest == Long.MIN_VALUE) {
      return 0L;
    }
    return Math.max(0L, latest + ShapingChecks.spacingNanos(1, current) - nowNanos);
  }

  RateSource rate() {
    return rate;
  }
}
