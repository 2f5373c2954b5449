package dev.guard.engine.internal.stat;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.LongAdder;

/**
 * One time bucket of a {@link BucketRing}: its start time and the counters of what happened
 * during {@code [startMs, startMs + bucketLength)}.
 *
 * <p>Each {@link MetricEvent} has its own {@link LongAdder}, so threads that record into the same
 * bucket spread their updates over striped cells instead of contending on one cache line. {@code
 * minRt} is the smallest response time recorded, starting at {@link #DEFAULT_MIN_RT}; it is
 * lowered with a plain racy check-then-write (a concurrent smaller value may occasionally be
 * overwritten by a larger one, which statistics tolerate).
 *
 * <p>Reuse protocol: a ring resets a stale bucket in place. The resetting thread first claims the
 * bucket by changing its start from the stale value to {@link #RESETTING} with a compare-and-set
 * ({@link #tryClaim}), then zeroes the counters and publishes the new start with a volatile write
 * ({@link #reset}). Readers and writers that see {@link #RESETTING} skip the bucket or wait; every
 * counter write that follows the publication is therefore kept.
 */
public final class MetricBucket {

  /** The initial (and "no data") minimum response time, in milliseconds. */
  public static final long DEFAULT_MIN_RT = 5000L;

  /** The start value of a bucket that a thread is resetting; never a valid start. */
  static final long RESETTING = -1L;

  private static final AtomicLongFieldUpdater<MetricBucket> START =
      AtomicLongFieldUpdater.newUpdater(MetricBucket.class, "startMs");

  private final LongAdder pass = new LongAdder();
  private final LongAdder block = new LongAdder();
  private final LongAdder exception = new LongAdder();
  private final LongAdder success = new LongAdder();
  private final LongAdder rt = new LongAdder();
  private final LongAdder occupiedPass = new LongAdder();
  private volatile long startMs;
  private volatile long minRt = DEFAULT_MIN_RT;

  /**
   * Creates an empty bucket.
   *
   * @param startMs the bucket's start time in milliseconds; {@code >= 0}
   */
  public MetricBucket(long startMs) {
    this.startMs = startMs;
  }

  /**
   * Returns the start time, or {@link #RESETTING} (negative) while a reset is in progress.
   *
   * @return the start time in milliseconds
   */
  public long startMs() {
    return startMs;
  }

  /**
   * Claims this bucket for a reset if its start is still {@code expectedStartMs}.
   *
   * @param expectedStartMs the stale start the caller observed
   * @return true if the caller now owns the reset and must finish it with {@link #reset}
   */
  boolean tryClaim(long expectedStartMs) {
    return START.compareAndSet(this, expectedStartMs, RESETTING);
  }

  /**
   * Zeroes every counter, restores {@code minRt} and then publishes the new start. The caller must
   * own the bucket: it claimed it, or no other thread can see it yet.
   *
   * @param newStartMs the new start time in milliseconds; {@code >= 0}
   */
  public void reset(long newStartMs) {
    clear();
    startMs = newStartMs;
  }

  /** Zeroes every counter and restores {@code minRt}, leaving the start unchanged. */
  void clear() {
    pass.reset();
    block.reset();
    exception.reset();
    success.reset();
    rt.reset();
    occupiedPass.reset();
    minRt = DEFAULT_MIN_RT;
  }

  /** Publishes the start of a bucket whose counters the caller prepared after a claim. */
  void publish(long newStartMs) {
    startMs = newStartMs;
  }

  /**
   * Adds {@code n} to an event's counter ({@code n} may be negative to undo an earlier add).
   *
   * @param event the event
   * @param n the amount
   */
  public void add(MetricEvent event, long n) {
    counter(event).add(n);
  }

  /**
   * Returns an event's current count.
   *
   * @param event the event
   * @return the count
   */
  public long get(MetricEvent event) {
    return counter(event).sum();
  }

  /**
   * Adds a response time to {@link MetricEvent#RT} and lowers {@code minRt} if it is smaller.
   *
   * @param rtMs the response time in milliseconds
   */
  public void addRt(long rtMs) {
    rt.add(rtMs);
    if (rtMs < minRt) {
      minRt = rtMs;
    }
  }

  /**
   * Returns the smallest response time recorded since the last reset.
   *
   * @return the minimum in milliseconds; {@link #DEFAULT_MIN_RT} if none was recorded
   */
  public long minRt() {
    return minRt;
  }

  private LongAdder counter(MetricEvent event) {
    return switch (event) {
      case PASS -> pass;
      case BLOCK -> block;
      case EXCEPTION -> exception;
      case SUCCESS -> success;
      case RT -> rt;
      case OCCUPIED_PASS -> occupiedPass;
    };
  }

  @Override
  public String toString() {
    return "MetricBucket{start="
        + startMs
        + ", pass="
        + pass.sum()
        + ", block="
        + block.sum()
        + ", occupiedPass="
        + occupiedPass.sum()
        + "}";
  }
}
