package dev.guard.engine.internal.stat;

import org.jspecify.annotations.Nullable;

/**
 * The minute-level window of a {@link StatisticNode} (60 buckets of 1 s), kept as a
 * roll-up of the node's second-level window instead of being written on every event.
 *
 * <p>Roll-up: events are recorded only in the second-level ring. When that ring resets a stale
 * bucket in place for a newer start, the thread that claimed the bucket hands it to {@link
 * #rollUp}, which moves the bucket's counts into the minute bucket of the bucket's <em>old</em>
 * start, or drops them when that second is already out of the minute window at the new start.
 * Each retired bucket is rolled up once, by the one thread that claimed it. This needs every
 * second-level bucket to lie inside one second, i.e. a second-level bucket length that divides
 * 1000 ms ({@link StatisticNode#requireRollUpGeometry}).
 *
 * <p>Reads: a count over a range of seconds is the minute ring's count plus {@link
 * MetricBucket#minuteCount} of the second-level buckets that start in that range. A bucket is
 * either still in the second ring (not rolled up yet) or already drained into the minute ring, so
 * nothing is counted twice. Validity matches a plain minute ring exactly: the totals cover the
 * sixty whole seconds that end with the second of {@code now}; the previous second is the one
 * before it.
 *
 * <p>Borrowed passes (docs/BEHAVIOUR.md, "Flow rules"): the minute window counts a borrowed pass at the time it was
 * borrowed. The borrowing call records it as OCCUPIED_PASS in the second-level bucket of that time,
 * and {@link MetricBucket#minuteCount} counts OCCUPIED_PASS as PASS. When the borrowed bucket
 * starts, the pre-filled PASS is also recorded as "arrived" ({@link MetricBucket#addArrivedPass}),
 * and the minute count subtracts it, so the roll-up of that bucket does not count it again. A
 * cancelled borrow removes the OCCUPIED_PASS, or, if its bucket has been rolled up already, the
 * PASS from the minute bucket ({@link #cancelBorrowedPass}); the arrived PASS and its arrived
 * count go together and leave the minute count unchanged.
 *
 * <p>Concurrency: lock-free; a roll-up runs while its second-level bucket is claimed and only
 * briefly waits if the target minute slot is itself being reset (which never waits on anything).
 * Draining swaps counters to zero atomically ({@link MetricBucket#drainInto}), so a write racing
 * with a roll-up is kept: in the minute bucket of the old start, or in the reused bucket, i.e.
 * attributed to a later second of the window. Totals read after the writers stopped are therefore
 * exact for every write whose second is inside the window and not delayed across a roll-up that
 * drops its second. A read that overlaps a roll-up may miss the counts being moved (it reads the
 * minute ring before the second ring, so it never sees them twice).
 */
final class MinuteWindow {

  private static final long SECOND_MS = 1000L;
  private static final long OLDEST_SECOND_MS = WindowGeometry.MINUTE.intervalMs() - SECOND_MS;

  private final BucketRing ring = new BucketRing(WindowGeometry.MINUTE);

  /**
   * Moves a retired second-level bucket into the minute bucket of its old start, or drops its
   * counts when that second is out of the minute window at {@code newStartMs}. The caller has
   * claimed the bucket; afterwards it is empty.
   *
   * @param retiring the claimed second-level bucket
   * @param oldStartMs the bucket's old start in milliseconds
   * @param newStartMs the start it is reset for, in milliseconds
   */
  void rollUp(MetricBucket retiring, long oldStartMs, long newStartMs) {
    long second = secondOf(oldStartMs);
    boolean inWindow = second >= secondOf(newStartMs) - OLDEST_SECOND_MS;
    retiring.drainInto(inWindow ? ring.attachedWindow(second) : null);
  }

  /**
   * Returns the minute bucket for a write whose second-level bucket is gone (its slot already
   * holds a later start), so that the minute window still counts it.
   *
   * @param nowMs the write's time in milliseconds
   * @return the minute bucket, or null when it is gone as well or {@code nowMs} is negative
   */
  @Nullable MetricBucket lateBucket(long nowMs) {
    return ring.attachedWindow(nowMs);
  }

  /**
   * Sums an event over the sixty whole seconds ending with the second of {@code nowMs}.
   *
   * @param nowMs the time in milliseconds
   * @param event the event
   * @param second the node's second-level ring
   * @return the sum; 0 for a negative time
   */
  long sum(long nowMs, MetricEvent event, BucketRing second) {
    if (nowMs < 0) {
      return 0L;
    }
    long rolledUp = ring.sum(nowMs, event);
    long from = Math.max(0L, secondOf(nowMs) - OLDEST_SECOND_MS);
    return rolledUp + second.minuteCountOfStarts(from, Long.MAX_VALUE, event);
  }

  /**
   * Returns an event's count in the whole second before the second of {@code nowMs}.
   *
   * @param nowMs the time in milliseconds
   * @param event the event
   * @param second the node's second-level ring
   * @return the count; 0 when that second would start before 0
   */
  long previousSecond(long nowMs, MetricEvent event, BucketRing second) {
    long previous = secondOf(nowMs) - SECOND_MS;
    if (previous < 0) {
      return 0L;
    }
    MetricBucket bucket = ring.previousWindow(nowMs);
    long rolledUp = bucket == null ? 0L : bucket.get(event);
    return rolledUp + second.minuteCountOfStarts(previous, previous + SECOND_MS, event);
  }

  /**
   * Removes {@code n} borrowed passes that were rolled up into the minute bucket of {@code
   * borrowedAtMs}, if that bucket is still there.
   *
   * @param borrowedAtMs the time of the borrow in milliseconds
   * @param n the permits
   */
  void cancelBorrowedPass(long borrowedAtMs, int n) {
    MetricBucket bucket = ring.windowValue(borrowedAtMs);
    if (bucket != null) {
      bucket.add(MetricEvent.PASS, -n);
    }
  }

  /** Reads one whole second (see {@link StatisticNode#readSecond}). */
  void readSecond(long secondMs, BucketRing second, long[] out) {
    MetricBucket rolledUp = ring.windowValue(secondMs);
    if (rolledUp != null) {
      StatisticNode.addTo(rolledUp, out, false);
    }
    second.addSecondOfStarts(secondMs, secondMs + SECOND_MS, out);
  }

  private static long secondOf(long timeMs) {
    return timeMs - Math.floorMod(timeMs, SECOND_MS);
  }
}
