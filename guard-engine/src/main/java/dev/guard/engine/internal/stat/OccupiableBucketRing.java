package dev.guard.engine.internal.stat;

import org.jspecify.annotations.Nullable;

/**
 * A second-level window that prioritized calls may borrow from (docs/BEHAVIOUR.md, "Flow rules"): a main {@link
 * BucketRing} plus a {@link FutureBucketRing} of borrowed passes.
 *
 * <p>A borrowing call registers its permits with {@link #addWaiting} on the future bucket that
 * contains the time it will be admitted. Nothing changes in the main ring until that bucket
 * starts: when the main ring creates or resets the bucket for a start {@code s}, it first copies
 * the borrowed {@link MetricEvent#PASS} count of the future bucket whose span contains {@code s}
 * into the new bucket, before the bucket is published. Borrowed passes thus "arrive" in the window
 * exactly when their bucket begins, and a reader never sees the bucket without them. (Future
 * buckets only ever hold PASS, so copying PASS on both creation and reset is the same as copying
 * all counters.)
 *
 * <p>Invariant: {@code waiting(t)} is the number of borrowed passes whose bucket starts after
 * {@code t}; once {@code t} reaches that start they are part of the main ring's sums instead.
 * Pre-filled passes are also recorded as arrived ({@link MetricBucket#addArrivedPass}), because
 * the minute window counted them when they were borrowed.
 *
 * <p>A ring that serves a {@link StatisticNode} rolls each stale main bucket up into the node's
 * {@link MinuteWindow} when it resets the bucket in place; a stand-alone ring discards it.
 */
public final class OccupiableBucketRing extends BucketRing {

  private final FutureBucketRing future;
  private final @Nullable MinuteWindow rollUp;

  /**
   * Creates an empty window that discards the counts of the buckets it reuses.
   *
   * @param geometry the geometry of both rings
   */
  public OccupiableBucketRing(WindowGeometry geometry) {
    this(geometry, null);
  }

  /**
   * Creates an empty window whose reused buckets are rolled up into {@code rollUp}.
   *
   * @param geometry the geometry of both rings
   * @param rollUp the minute window that receives retired buckets, or null to discard them
   */
  OccupiableBucketRing(WindowGeometry geometry, @Nullable MinuteWindow rollUp) {
    super(geometry);
    this.future = new FutureBucketRing(geometry);
    this.rollUp = rollUp;
  }

  /**
   * Returns the passes borrowed for buckets that start after {@code nowMs}.
   *
   * @param nowMs the time in milliseconds
   * @return the waiting passes
   */
  public long waiting(long nowMs) {
    return future.sum(nowMs, MetricEvent.PASS);
  }

  /**
   * Registers {@code n} passes borrowed from the bucket that contains {@code futureTimeMs}.
   *
   * @param futureTimeMs the time the borrowing call will be admitted, in milliseconds
   * @param n the number of permits
   */
  public void addWaiting(long futureTimeMs, int n) {
    future.currentWindow(futureTimeMs).add(MetricEvent.PASS, n);
  }

  /**
   * Removes {@code n} passes that {@link #addWaiting} registered for {@code futureTimeMs}, for a
   * borrowing call that gave up. If the bucket has already started and received the borrowed
   * passes, they are removed from it as well. (A cancel that races with the start of that very
   * bucket may miss the main ring or remove the passes twice; both are bounded by {@code n}.)
   *
   * @param futureTimeMs the time given to {@link #addWaiting}, in milliseconds
   * @param n the number of permits given to {@link #addWaiting}
   */
  public void cancelWaiting(long futureTimeMs, int n) {
    MetricBucket borrowed = future.windowValue(futureTimeMs);
    if (borrowed == null) {
      return;
    }
    borrowed.add(MetricEvent.PASS, -n);
    MetricBucket arrived = windowValue(futureTimeMs);
    if (arrived != null) {
      arrived.addArrivedPass(-n);
    }
  }

  /**
   * Decides whether {@code permits} more passes may be borrowed from an upcoming bucket, and how
   * long the borrowing call would wait (for any geometry).
   *
   * <p>With bucket length {@code w} and interval {@code I}, the window may hold {@code maxCount =
   * threshold × I / 1000} passes. The candidates are the ends of the current bucket and of the
   * following ones, {@code wait = (k + 1)·w − (now mod w)} for {@code k = 0, 1, …}, as long as the
   * bucket that slides out at that moment is still in the window and {@code wait <
   * occupyTimeoutMs}. A candidate is taken when the window without the buckets that slid out, plus
   * everything already borrowed, plus {@code permits}, stays within {@code maxCount}. Nothing is
   * recorded; the caller registers the borrow with {@link #addWaiting}.
   *
   * @param nowMs the time in milliseconds
   * @param permits the permits the call asks for
   * @param threshold the rule's rate limit in calls per second
   * @param occupyTimeoutMs the longest acceptable wait in milliseconds
   * @return the wait in milliseconds ({@code < occupyTimeoutMs}), or {@code occupyTimeoutMs} to
   *     refuse
   */
  public long tryOccupyNext(long nowMs, int permits, double threshold, long occupyTimeoutMs) {
    double maxCount = threshold * geometry().intervalMs() / 1000.0;
    long borrowed = waiting(nowMs);
    if (borrowed >= maxCount) {
      return occupyTimeoutMs;
    }
    long bucketLength = geometry().bucketLengthMs();
    long offset = nowMs % bucketLength;
    long earliest = nowMs - offset + bucketLength - geometry().intervalMs();
    long windowPass = sum(nowMs, MetricEvent.PASS);
    long wait = bucketLength - offset;
    while (earliest < nowMs && wait < occupyTimeoutMs) {
      long leaving = passOf(windowValue(earliest));
      if (windowPass + borrowed + permits - leaving <= maxCount) {
        return wait;
      }
      earliest += bucketLength;
      windowPass -= leaving;
      wait += bucketLength;
    }
    return occupyTimeoutMs;
  }

  @Override
  protected void retire(MetricBucket bucket, long oldStartMs, long newStartMs) {
    MinuteWindow minute = rollUp;
    if (minute == null) {
      bucket.clear();
    } else {
      minute.rollUp(bucket, oldStartMs, newStartMs);
    }
  }

  @Override
  protected void prepare(MetricBucket bucket, long startMs) {
    MetricBucket borrowed = future.windowValue(startMs);
    if (borrowed != null) {
      bucket.addArrivedPass(borrowed.get(MetricEvent.PASS));
    }
  }

  private static long passOf(@Nullable MetricBucket bucket) {
    return bucket == null ? 0L : bucket.get(MetricEvent.PASS);
  }
}
