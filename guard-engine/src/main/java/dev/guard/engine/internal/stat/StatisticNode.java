package dev.guard.engine.internal.stat;

import dev.guard.engine.internal.flow.FlowMetrics;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The statistics of one node (SEMANTICS 3.5): a second-level {@link OccupiableBucketRing} for
 * rates, a minute-level {@link BucketRing} of 60 × 1 s for totals and previous-second counts, and
 * a live concurrency gauge.
 *
 * <p>Writes go to both windows, except that a borrowed pass ({@link #addOccupiedPass}) is counted
 * as OCCUPIED_PASS in the second window and as PASS in the minute window only; the second window
 * receives the PASS itself when the borrowed bucket starts. Rates divide a second-window sum by
 * the window length in seconds. Every method takes the engine time in milliseconds and none reads
 * a clock.
 *
 * <p>Thread-safe and lock-free. The pass path ({@link #addPass}, {@link #passQps}, {@link
 * #increaseThreads}, {@link #decreaseThreads}, {@link #addRtAndSuccess}) allocates nothing once
 * the buckets of a slot exist.
 */
public class StatisticNode implements FlowMetrics {

  private final OccupiableBucketRing second;
  private final BucketRing minute = new BucketRing(WindowGeometry.MINUTE);
  private final LongAdder threads = new LongAdder();
  private final double intervalSec;

  /**
   * Creates a node with empty windows.
   *
   * @param second the geometry of the second-level window
   */
  public StatisticNode(WindowGeometry second) {
    this.second = new OccupiableBucketRing(second);
    this.intervalSec = second.intervalSec();
  }

  /** {@return the geometry of the second-level window} */
  public WindowGeometry secondGeometry() {
    return second.geometry();
  }

  // ---- writes --------------------------------------------------------------------------------

  /**
   * Records {@code n} admitted permits in both windows.
   *
   * @param nowMs engine time in milliseconds
   * @param n the permits
   */
  public void addPass(long nowMs, int n) {
    second.currentWindow(nowMs).add(MetricEvent.PASS, n);
    minute.currentWindow(nowMs).add(MetricEvent.PASS, n);
  }

  /**
   * Records {@code n} refused permits in both windows.
   *
   * @param nowMs engine time in milliseconds
   * @param n the permits
   */
  public void addBlock(long nowMs, int n) {
    second.currentWindow(nowMs).add(MetricEvent.BLOCK, n);
    minute.currentWindow(nowMs).add(MetricEvent.BLOCK, n);
  }

  /**
   * Records {@code n} completed permits that ended with a traced error, in both windows.
   *
   * @param nowMs engine time in milliseconds
   * @param n the permits
   */
  public void addException(long nowMs, int n) {
    second.currentWindow(nowMs).add(MetricEvent.EXCEPTION, n);
    minute.currentWindow(nowMs).add(MetricEvent.EXCEPTION, n);
  }

  /**
   * Records one completed call: its response time once and {@code n} successes, in both windows.
   *
   * @param nowMs engine time in milliseconds
   * @param rtMs the response time in milliseconds
   * @param n the permits of the call
   */
  public void addRtAndSuccess(long nowMs, long rtMs, int n) {
    MetricBucket current = second.currentWindow(nowMs);
    current.add(MetricEvent.SUCCESS, n);
    current.addRt(rtMs);
    current = minute.currentWindow(nowMs);
    current.add(MetricEvent.SUCCESS, n);
    current.addRt(rtMs);
  }

  /**
   * Records {@code n} permits borrowed from a future bucket: OCCUPIED_PASS in the second window and
   * PASS in the minute window.
   *
   * @param nowMs engine time in milliseconds (the time of the borrowing decision)
   * @param n the permits
   */
  public void addOccupiedPass(long nowMs, int n) {
    second.currentWindow(nowMs).add(MetricEvent.OCCUPIED_PASS, n);
    minute.currentWindow(nowMs).add(MetricEvent.PASS, n);
  }

  /**
   * Registers {@code n} borrowed passes that arrive in the bucket containing {@code futureTimeMs}.
   *
   * @param futureTimeMs the time the borrowing call is admitted, in milliseconds
   * @param n the permits
   */
  public void addWaiting(long futureTimeMs, int n) {
    second.addWaiting(futureTimeMs, n);
  }

  /**
   * Undoes a borrow that {@link #addWaiting} and {@link #addOccupiedPass} recorded, for a caller that
   * gave up its wait: the waiting passes (and the arrived passes, if the bucket already started),
   * the occupied pass and the minute pass. Buckets that have since been reused are left alone.
   *
   * @param borrowedAtMs the time given to {@link #addOccupiedPass}, in milliseconds
   * @param futureTimeMs the time given to {@link #addWaiting}, in milliseconds
   * @param n the permits
   */
  public void cancelWaiting(long borrowedAtMs, long futureTimeMs, int n) {
    second.cancelWaiting(futureTimeMs, n);
    subtract(second.windowValue(borrowedAtMs), MetricEvent.OCCUPIED_PASS, n);
    subtract(minute.windowValue(borrowedAtMs), MetricEvent.PASS, n);
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
  public double blockQps(long nowMs) {
    return second.sum(nowMs, MetricEvent.BLOCK) / intervalSec;
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
   * {@return {@link #passQps} plus {@link #blockQps}}
   *
   * @param nowMs engine time in milliseconds
   */
  public double totalQps(long nowMs) {
    return passQps(nowMs) + blockQps(nowMs);
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
  public long tryOccupyNext(long nowMs, int permits, double threshold, long occupyTimeoutMs) {
    return second.tryOccupyNext(nowMs, permits, threshold, occupyTimeoutMs);
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
  public double previousBlockQps(long nowMs) {
    return previous(nowMs, MetricEvent.BLOCK);
  }

  /**
   * {@return admitted permits (including borrowed ones) in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long totalPass(long nowMs) {
    return minute.sum(nowMs, MetricEvent.PASS);
  }

  /**
   * {@return admitted plus refused permits in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long totalRequest(long nowMs) {
    return totalPass(nowMs) + blockRequest(nowMs);
  }

  /**
   * {@return refused permits in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long blockRequest(long nowMs) {
    return minute.sum(nowMs, MetricEvent.BLOCK);
  }

  /**
   * {@return completed permits in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long totalSuccess(long nowMs) {
    return minute.sum(nowMs, MetricEvent.SUCCESS);
  }

  /**
   * {@return permits completed with a traced error in the minute window}
   *
   * @param nowMs engine time in milliseconds
   */
  public long totalException(long nowMs) {
    return minute.sum(nowMs, MetricEvent.EXCEPTION);
  }

  @Override
  public long concurrency() {
    return threads.sum();
  }

  private double previous(long nowMs, MetricEvent event) {
    minute.currentWindow(nowMs);
    MetricBucket bucket = minute.previousWindow(nowMs);
    return bucket == null ? 0.0 : bucket.get(event);
  }

  private static void subtract(@Nullable MetricBucket bucket, MetricEvent event, int n) {
    if (bucket != null) {
      bucket.add(event, -n);
    }
  }
}
