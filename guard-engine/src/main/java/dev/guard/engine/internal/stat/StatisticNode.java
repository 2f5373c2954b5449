package dev.guard.engine.internal.stat;

import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The statistics of one node (docs/BEHAVIOUR.md, "Statistics"): a second-level {@link OccupiableBucketRing} for
 * rates, a minute-level {@link MinuteWindow} of 60 × 1 s for totals and previous-second counts,
 * and a live concurrency gauge.
 *
 * <p>Writes go to the second-level window only; the minute window is its roll-up. The thread that
 * resets a stale second-level bucket first moves its counts into the minute bucket of the old
 * start (dropping them if that second has left the minute window), so each bucket is rolled up
 * exactly once, and minute reads add the second-level buckets still in the ring whose start lies
 * in the range read. Hence the second-level bucket length must divide 1000 ms. A write whose
 * second-level bucket was already reused for a later start goes straight to its minute bucket.
 *
 * <p>Borrowed passes: {@link #addOccupiedPass} records OCCUPIED_PASS in the bucket of the borrowing
 * time, and the minute window counts a bucket's PASS as {@code PASS − arrived + OCCUPIED_PASS}: the
 * borrowed pass is counted once, at borrowing time, and the PASS that borrowing later pre-fills
 * into the borrowed bucket is marked arrived, so its roll-up does not count it again. {@link
 * #cancelWaiting} removes the occupied pass (or, once rolled up, the minute pass) and the borrowed
 * passes from where {@link #addWaiting} placed them (waiting, or arrived), leaving no trace.
 *
 * <p>Thread-safe and lock-free. The pass path ({@link #addPass}, {@link #passQps}, {@link
 * #increaseThreads}, {@link #decreaseThreads}, {@link #addRtAndSuccess}) allocates nothing once
 * the buckets of a slot exist. Roll-ups move counters atomically: once writers stop, the minute
 * totals count every write of the window exactly once (one that raced with the reset of its
 * bucket may count in a later second of the window); a read that overlaps a roll-up may miss the
 * counts being moved, never count them twice ({@link MinuteWindow}). Rates divide a second-window
 * sum by the window length in seconds. Every method takes the engine time in milliseconds and
 * none reads a clock.
 */
public class StatisticNode implements FlowMetrics {

  private final MinuteWindow minute = new MinuteWindow();
  private final OccupiableBucketRing second;
  private final LongAdder threads = new LongAdder();
  private final double intervalSec;

  /**
   * Creates a node with empty windows.
   *
   * @param second the geometry of the second-level window; its bucket length must divide 1000 ms
   * @throws IllegalArgumentException if the bucket length does not divide 1000 ms
   */
  public StatisticNode(WindowGeometry second) {
    requireRollUpGeometry(second, "second-level window");
    this.second = new OccupiableBucketRing(second, minute);
    this.intervalSec = second.intervalSec();
  }

  /**
   * Checks that a second-level geometry can be rolled up into the minute window: its bucket length
   * must divide 1000 ms, so that every bucket lies inside one second.
   *
   * @param geometry the second-level geometry
   * @param option the option or parameter to name in the message
   * @throws IllegalArgumentException if the bucket length does not divide 1000 ms
   */
  public static void requireRollUpGeometry(WindowGeometry geometry, String option) {
    int length = geometry.bucketLengthMs();
    if (1000 % length != 0) {
      throw new IllegalArgumentException(option + " bucket length must divide 1000 ms (each bucket"
          + " must lie inside one second of the minute window it rolls up into), was " + length
          + " ms (" + geometry.intervalMs() + " ms / " + geometry.sampleCount() + " buckets)");
    }
  }

  /** {@return the geometry of the second-level window} */
  @Override
  public WindowGeometry secondGeometry() {
    return second.geometry();
  }

  // ---- writes --------------------------------------------------------------------------------

  /**
   * Records {@code n} admitted permits.
   *
   * @param nowMs engine time in milliseconds
   * @param n the permits
   */
  public void addPass(long nowMs, int n) {
    add(nowMs, MetricEvent.PASS, n);
  }

  /**
   * Records {@code n} refused permits.
   *
   * @param nowMs engine time in milliseconds
   * @param n the permits
   */
  public void addRefused(long nowMs, int n) {
    add(nowMs, MetricEvent.REFUSE, n);
  }

  /**
   * Records {@code n} completed permits that ended with a traced error.
   *
   * @param nowMs engine time in milliseconds
   * @param n the permits
   */
  public void addException(long nowMs, int n) {
    add(nowMs, MetricEvent.EXCEPTION, n);
  }

  /**
   * Records one completed call: its response time once and {@code n} successes.
   *
   * @param nowMs engine time in milliseconds
   * @param rtMs the response time in milliseconds
   * @param n the permits of the call
   */
  public void addRtAndSuccess(long nowMs, long rtMs, int n) {
    MetricBucket current = bucketFor(nowMs);
    if (current != null) {
      current.addCompletion(rtMs, n);
    }
  }

  /**
   * Records {@code n} permits borrowed from a future bucket: OCCUPIED_PASS in the second window,
   * which the minute window counts as PASS at this time.
   *
   * @param nowMs engine time in milliseconds (the time of the borrowing decision)
   * @param n the permits
   */
  public void addOccupiedPass(long nowMs, int n) {
    MetricBucket current = second.attachedWindow(nowMs);
    if (current != null) {
      current.add(MetricEvent.OCCUPIED_PASS, n);
    } else {
      add(minute.lateBucket(nowMs), MetricEvent.PASS, n);
    }
  }

  /**
   * Registers {@code n} borrowed passes that arrive in the bucket containing {@code futureTimeMs}
   * (see {@link OccupiableBucketRing#addWaiting}).
   *
   * @param futureTimeMs the time the borrowing call is admitted, in milliseconds
   * @param n the permits
   * @return where the passes were counted, for {@link #cancelWaiting}
   */
  public BorrowPlacement addWaiting(long futureTimeMs, int n) {
    return second.addWaiting(futureTimeMs, n);
  }

  /**
   * Starts the second-level bucket of {@code nowMs} if no call has started it yet, so that the
   * passes borrowed for it arrive even when nothing else is recorded in it: a borrowing call, which
   * records no pass of its own, does this when it is admitted.
   *
   * @param nowMs the admission time in milliseconds
   */
  public void startBucket(long nowMs) {
    second.attachedWindow(nowMs);
  }

  /**
   * Undoes a borrow that {@link #addWaiting} and {@link #addOccupiedPass} recorded, for a caller that
   * gave up its wait: the borrowed passes from where they are counted (waiting, or arrived in their
   * bucket), the occupied pass and the minute pass. Buckets that have since been reused are left
   * alone.
   *
   * @param borrowedAtMs the time given to {@link #addOccupiedPass}, in milliseconds
   * @param futureTimeMs the time given to {@link #addWaiting}, in milliseconds
   * @param n the permits
   * @param placement what {@link #addWaiting} returned
   */
  public void cancelWaiting(long borrowedAtMs, long futureTimeMs, int n, BorrowPlacement placement) {
    second.cancelWaiting(futureTimeMs, n, placement);
    MetricBucket occupied = second.windowValue(borrowedAtMs);
    if (occupied != null) {
      occupied.add(MetricEvent.OCCUPIED_PASS, -n); // also removes its minute PASS
    } else {
      minute.cancelBorrowedPass(borrowedAtMs, n); // its bucket was rolled up already
    }
  }

  /** Counts one more call running on this node. */
  public void increaseThreads() {
    threads.increment();
  }

  /** Counts one call fewer running on this node. */
  public void decreaseThreads() {
    threads.decrement();
  }

  // ---- reads: second window --------------------------------------------------------------------

  @Override
  public double passQps(long nowMs) {
    return second.sum(nowMs, MetricEvent.PASS) / intervalSec;
  }

  /**
   * {@return refused permits per second in the second-level window}
   *
   * @param nowMs engine time in milliseconds
   */
  public double refusedQps(long nowMs) {
    return second.sum(nowMs, MetricEvent.REFUSE) / intervalSec;
  }

  /**
   * {@return completed permits per second in the second-level window}
   *
   * @param nowMs engine time in milliseconds
   */
  public double successQps(long nowMs) {
    return second.sum(nowMs, MetricEvent.SUCCESS) / intervalSec;
  }

  /**
   * {@return permits completed with a traced error per second in the second-level window}
   *
   * @param nowMs engine time in milliseconds
   */
  public double exceptionQps(long nowMs) {
    return second.sum(nowMs, MetricEvent.EXCEPTION) / intervalSec;
  }

  /**
   * {@return borrowed permits per second in the second-level window}
   *
   * @param nowMs engine time in milliseconds
   */
  public double occupiedPassQps(long nowMs) {
    return second.sum(nowMs, MetricEvent.OCCUPIED_PASS) / intervalSec;
  }

  /**
   * {@return {@link #passQps} plus {@link #refusedQps}}
   *
   * @param nowMs engine time in milliseconds
   */
  public double totalQps(long nowMs) {
    return passQps(nowMs) + refusedQps(nowMs);
  }

  /**
   * {@return the mean response time in ms over the second-level window; 0 without completions}
   *
   * @param nowMs engine time in milliseconds
   */
  public double avgRt(long nowMs) {
    long success = second.sum(nowMs, MetricEvent.SUCCESS);
    return success == 0 ? 0.0 : second.sum(nowMs, MetricEvent.RT) / (double) success;
  }

  /**
   * {@return the smallest response time in ms in the second-level window; at least 1, and {@value
   * MetricBucket#DEFAULT_MIN_RT} without data}
   *
   * @param nowMs engine time in milliseconds
   */
  public double minRt(long nowMs) {
    return Math.max(1L, second.minRt(nowMs));
  }

  /**
   * {@return the peak per-bucket completions (at least 1) scaled to a rate: {@code peak ×
   * sampleCount / intervalSec}}
   *
   * @param nowMs engine time in milliseconds
   */
  public double maxSuccessQps(long nowMs) {
    long peak = Math.max(1L, second.max(nowMs, MetricEvent.SUCCESS));
    return peak * second.geometry().sampleCount() / intervalSec;
  }

  /**
   * {@return the passes borrowed for buckets that start after {@code nowMs}}
   *
   * @param nowMs engine time in milliseconds
   */
  public long waiting(long nowMs) {
    return second.waiting(nowMs);
  }

  /**
   * Decides a prioritized borrow; see {@link OccupiableBucketRing#tryOccupyNext}. Records nothing.
   *
   * @param nowMs engine time in milliseconds
   * @param permits the permits the call asks for
   * @param threshold the rule's rate limit in calls per second
   * @param occupyTimeoutMs the longest acceptable wait in milliseconds
   * @return the wait in milliseconds, or {@code occupyTimeoutMs} to refuse
   */
  @Override
  public long tryOccupyNext(long nowMs, int permits, double threshold, long occupyTimeoutMs) {
    return second.tryOccupyNext(nowMs, permits, threshold, occupyTimeoutMs);
  }

  /** Index of admitted permits in {@link #readSecond}'s result. */
  public static final int PASS = 0;
  /** Index of refused permits. */
  public static final int BLOCK = 1;
  /** Index of completed permits. */
  public static final int SUCCESS = 2;
  /** Index of permits completed with a traced error. */
  public static final int EXCEPTION = 3;
  /** Index of the sum of response times (ms). */
  public static final int RT = 4;
  /** Index of the minimum response time (ms; {@link MetricBucket#DEFAULT_MIN_RT} when none). */
  public static final int MIN_RT = 5;
  /** The length of {@link #readSecond}'s result. */
  public static final int SECOND_FIELDS = 6;

  /**
   * Reads what the node recorded during one whole second, as the minute window counts it (a
   * borrowed pass in the second it was borrowed): the rolled-up minute bucket plus the
   * second-level buckets of that second not rolled up yet. Meaningful for the sixty seconds the
   * minute window covers; off the call path (the metrics history reads it once a second closed).
   *
   * @param secondMs the second's start in milliseconds, a multiple of 1000
   * @param out receives the counts at the indexes {@link #PASS} ... {@link #MIN_RT}; length at
   *     least {@link #SECOND_FIELDS}
   */
  public void readSecond(long secondMs, long[] out) {
    for (int i = 0; i < SECOND_FIELDS; i++) {
      out[i] = 0L;
    }
    out[MIN_RT] = MetricBucket.DEFAULT_MIN_RT;
    minute.readSecond(secondMs, second, out);
  }

  static void addTo(MetricBucket bucket, long[] out, boolean secondLevel) {
    out[PASS] += secondLevel ? bucket.minuteCount(MetricEvent.PASS) : bucket.get(MetricEvent.PASS);
    out[BLOCK] += bucket.get(MetricEvent.REFUSE);
    out[SUCCESS] += bucket.get(MetricEvent.SUCCESS);
    out[EXCEPTION] += bucket.get(MetricEvent.EXCEPTION);
    out[RT] += bucket.get(MetricEvent.RT);
    out[MIN_RT] = Math.min(out[MIN_RT], bucket.minRt());
  }

  // ---- reads: minute window and gauge ----------------------------------------------------------

  @Override
  public double previousPassQps(long nowMs) {
    return previous(nowMs, MetricEvent.PASS);
  }

  /**
   * {@return refused permits in the previous whole second (minute window)}
   *
   * @param nowMs engine time in milliseconds
   */
  public double previousRefusedQps(long nowMs) {
    return previous(nowMs, MetricEvent.REFUSE);
  }

  /**
   * {@return admitted permits (including borrowed ones) in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long totalPass(long nowMs) {
    return minute.sum(nowMs, MetricEvent.PASS, second);
  }

  /**
   * {@return admitted plus refused permits in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long totalRequest(long nowMs) {
    return totalPass(nowMs) + refusedRequest(nowMs);
  }

  /**
   * {@return refused permits in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long refusedRequest(long nowMs) {
    return minute.sum(nowMs, MetricEvent.REFUSE, second);
  }

  /**
   * {@return completed permits in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long totalSuccess(long nowMs) {
    return minute.sum(nowMs, MetricEvent.SUCCESS, second);
  }

  /**
   * {@return permits completed with a traced error in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long totalException(long nowMs) {
    return minute.sum(nowMs, MetricEvent.EXCEPTION, second);
  }

  @Override
  public long concurrency() {
    return threads.sum();
  }

  private double previous(long nowMs, MetricEvent event) {
    return minute.previousSecond(nowMs, event, second);
  }

  private void add(long nowMs, MetricEvent event, int n) {
    add(bucketFor(nowMs), event, n);
  }

  /** The second-level bucket of {@code nowMs}, else its minute bucket, else null (count dropped). */
  private @Nullable MetricBucket bucketFor(long nowMs) {
    MetricBucket current = second.attachedWindow(nowMs);
    return current != null ? current : minute.lateBucket(nowMs);
  }

  private static void add(@Nullable MetricBucket bucket, MetricEvent event, int n) {
    if (bucket != null) {
      bucket.add(event, n);
    }
  }
}
