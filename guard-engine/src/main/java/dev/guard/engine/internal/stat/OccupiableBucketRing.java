package dev.guard.engine.internal.stat;

import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A second-level window that prioritized calls may borrow from (docs/BEHAVIOUR.md, "Flow rules"): a
 * main {@link BucketRing} plus a {@link FutureBucketRing} of borrowed passes.
 *
 * <p>A borrowing call registers its permits with {@link #addWaiting} for the bucket that contains
 * the time it will be admitted. While that bucket has not started, they wait in the future ring
 * and nothing changes in the main ring. When the main ring creates or resets the bucket for a
 * start {@code s}, it first takes the passes waiting for {@code s} ({@link
 * FutureBucketRing#deliver}) and pre-fills them as {@link MetricEvent#PASS}, before the bucket is
 * published: borrowed passes "arrive" in the window exactly when their bucket begins, and a reader
 * never sees the bucket without them. A borrow registered once its bucket has started (its caller
 * read the time just before the start, and meanwhile another call started the bucket, for example
 * a borrower refused at its admission) is counted in that bucket directly.
 *
 * <p>Each registration returns where its passes were counted ({@link BorrowPlacement}), and {@link
 * #cancelWaiting} removes them from there only: from the future ring if they are still waiting,
 * from the main bucket if it received them, from nowhere if neither holds them. Delivery and
 * taking back are one compare-and-set each on the future record, so the two never both happen to
 * a pass. The ring remembers the latest start it has prepared; a registration checks it after
 * adding to the future ring (and the preparation sets it before taking the future passes), so a
 * borrow racing with the start of its bucket is either delivered or moves itself to the started
 * bucket: a bucket's borrowed passes never go below zero nor count twice (short of a cancel delayed
 * until its bucket is reused, the misplaced write {@link BucketRing} tolerates).
 *
 * <p>Invariant: {@code waiting(t)} is the number of borrowed passes still waiting for a bucket
 * that starts after {@code t}; once it starts they are part of the main ring's sums instead.
 * Arrived passes are also recorded as such ({@link MetricBucket#addArrivedPass}), because the
 * minute window counted them when they were borrowed.
 *
 * <p>A ring that serves a {@link StatisticNode} rolls each stale main bucket up into the node's
 * {@link MinuteWindow} when it resets the bucket in place; a stand-alone ring discards it.
 */
public final class OccupiableBucketRing extends BucketRing {

  private final FutureBucketRing future;
  private final @Nullable MinuteWindow rollUp;
  // The latest bucket start this ring has prepared: a borrow for a start at or before it is
  // counted in the started bucket instead of waiting for it.
  private final AtomicLong startedUpTo = new AtomicLong(Long.MIN_VALUE);

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
    return future.waiting(nowMs);
  }

  /**
   * Returns the smallest borrowed count the future ring holds (for invariant checks).
   *
   * @return the minimum; 0 when nothing was borrowed
   */
  long lowestBorrowedCount() {
    return future.lowestCount();
  }

  /**
   * Registers {@code n} passes borrowed from the bucket that contains {@code futureTimeMs}: they
   * wait for that bucket, or, if it has started, are counted in it at once.
   *
   * @param futureTimeMs the time the borrowing call will be admitted, in milliseconds
   * @param n the number of permits
   * @return where the passes were counted, for {@link #cancelWaiting}
   */
  public BorrowPlacement addWaiting(long futureTimeMs, int n) {
    long start = startOf(futureTimeMs);
    if (start < 0) {
      return BorrowPlacement.NOWHERE; // engine times are not negative; a stand-alone ring's may be
    }
    if (startedUpTo.get() < start) {
      int added = future.add(start, n);
      if (added == FutureBucketRing.GONE) {
        return BorrowPlacement.NOWHERE;
      }
      if (added == FutureBucketRing.OPEN) {
        if (startedUpTo.get() < start) {
          return BorrowPlacement.FUTURE_BUCKET; // its start will take them (see the class comment)
        }
        // the bucket started meanwhile, perhaps without them: move them there unless it took them
        int taken = future.take(start, n);
        if (taken != FutureBucketRing.OPEN) {
          return taken == FutureBucketRing.DELIVERED
              ? BorrowPlacement.FUTURE_BUCKET : BorrowPlacement.NOWHERE;
        }
      }
    }
    MetricBucket started = attachedWindow(start);
    if (started == null) {
      return BorrowPlacement.NOWHERE;
    }
    started.addArrivedPass(n);
    return BorrowPlacement.STARTED_BUCKET;
  }

  /**
   * Removes {@code n} passes that {@link #addWaiting} registered, for a borrowing call that gave
   * up: from where they are counted now, and only there. Passes whose bucket has since been reused
   * are left alone (they no longer count).
   *
   * @param futureTimeMs the time given to {@link #addWaiting}, in milliseconds
   * @param n the number of permits given to {@link #addWaiting}
   * @param placement what {@link #addWaiting} returned
   */
  public void cancelWaiting(long futureTimeMs, int n, BorrowPlacement placement) {
    long start = startOf(futureTimeMs);
    MetricBucket arrived;
    if (placement == BorrowPlacement.FUTURE_BUCKET) {
      if (future.take(start, n) != FutureBucketRing.DELIVERED) {
        return; // taken back before they arrived, or gone
      }
      arrived = attachedWindow(start); // the bucket that received them (it may be being installed)
    } else if (placement == BorrowPlacement.STARTED_BUCKET) {
      arrived = windowValue(start);
    } else {
      return;
    }
    if (arrived != null && arrived.startMs() == start) {
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
    long started = startedUpTo.get();
    while (started < startMs && !startedUpTo.compareAndSet(started, startMs)) {
      started = startedUpTo.get();
    }
    long arrived = future.deliver(startMs); // after publishing the start (see the class comment)
    if (arrived != 0L) {
      bucket.addArrivedPass(arrived);
    }
  }

  private static long passOf(@Nullable MetricBucket bucket) {
    return bucket == null ? 0L : bucket.get(MetricEvent.PASS);
  }
}
