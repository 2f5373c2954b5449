package dev.guard.engine.internal.stat;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

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
 *
 * <p>Roll-up (see {@link MinuteWindow}): a second-level bucket may instead be <em>drained</em> into
 * a minute bucket ({@link #drainInto}). Draining takes each counter with {@link
 * LongAdder#sumThenReset}, which swaps every cell to zero atomically, so an add racing with the
 * drain is either part of the drained amount or stays in this bucket: it is never lost and never
 * moved twice. A separate "arrived" count holds the PASS that borrowing pre-filled into this
 * bucket ({@link #addArrivedPass}); those passes were already counted for the minute window when
 * they were borrowed, so {@link #minuteCount} and {@link #drainInto} leave them out.
 */
public final class MetricBucket {

  /** The initial (and "no data") minimum response time, in milliseconds. */
  public static final long DEFAULT_MIN_RT = 5000L;

  private static final int RT_BITS = 36;
  private static final long RT_MASK = (1L << RT_BITS) - 1;

  /** The start value of a bucket that a thread is resetting; never a valid start. */
  static final long RESETTING = -1L;

  private static final AtomicLongFieldUpdater<MetricBucket> START =
      AtomicLongFieldUpdater.newUpdater(MetricBucket.class, "startMs");
  private static final AtomicLongFieldUpdater<MetricBucket> ARRIVED =
      AtomicLongFieldUpdater.newUpdater(MetricBucket.class, "arrivedPass");

  private final LongAdder pass = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private final LongAdder exception = new LongAdder();
  // SUCCESS and RT share one adder, so a completion costs one atomic add: the count of successes
  // in the high bits, the sum of response times (ms) in the low RT_BITS bits. Per bucket that
  // allows 2^27 (134 million) completions and 2^36 ms (795 days) of summed response time.
  private final LongAdder completions = new LongAdder();
  private final LongAdder occupiedPass = new LongAdder();
  private volatile long startMs;
  private volatile long minRt = DEFAULT_MIN_RT;
  private volatile long arrivedPass;

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
    refused.reset();
    exception.reset();
    completions.reset();
    occupiedPass.reset();
    minRt = DEFAULT_MIN_RT;
    arrivedPass = 0L;
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
    // comparisons, not a switch: on a constant event they fold away once inlined
    if (event == MetricEvent.SUCCESS) {
      completions.add(n << RT_BITS);
    } else if (event == MetricEvent.RT) {
      completions.add(n);
    } else {
      counter(event).add(n);
    }
  }

  /**
   * Records {@code n} completions with one response time, in one atomic add.
   *
   * @param rtMs the response time in milliseconds; {@code >= 0}
   * @param n the completed permits
   */
  public void addCompletion(long rtMs, long n) {
    completions.add((n << RT_BITS) + rtMs);
    if (rtMs < minRt) {
      minRt = rtMs;
    }
  }

  /**
   * Returns an event's current count.
   *
   * @param event the event
   * @return the count
   */
  public long get(MetricEvent event) {
    if (event == MetricEvent.SUCCESS) {
      return completions.sum() >>> RT_BITS;
    }
    if (event == MetricEvent.RT) {
      return completions.sum() & RT_MASK;
    }
    return counter(event).sum();
  }

  /**
   * Adds a response time to {@link MetricEvent#RT} and lowers {@code minRt} if it is smaller.
   *
   * @param rtMs the response time in milliseconds
   */
  public void addRt(long rtMs) {
    completions.add(rtMs);
    if (rtMs < minRt) {
      minRt = rtMs;
    }
  }

  /**
   * Adds {@code n} passes that were borrowed for this bucket and arrive now that it starts: they
   * count as {@link MetricEvent#PASS} here but not again in the minute window ({@code n} may be
   * negative when a borrow is cancelled after it arrived).
   *
   * @param n the amount
   */
  void addArrivedPass(long n) {
    pass.add(n);
    ARRIVED.addAndGet(this, n);
  }

  /** {@return the passes borrowed for this bucket that arrived in it (part of its PASS)} */
  long arrivedPass() {
    return arrivedPass;
  }

  /**
   * Returns what this second-level bucket adds to an event of the minute window: the count itself,
   * except that PASS is {@code pass − arrived borrowed passes + occupied passes} (a borrowed pass
   * counts in the minute window at the time it was borrowed) and OCCUPIED_PASS is 0.
   *
   * @param event the event
   * @return the count
   */
  long minuteCount(MetricEvent event) {
    return switch (event) {
      case PASS -> pass.sum() - arrivedPass + occupiedPass.sum();
      case OCCUPIED_PASS -> 0L;
      default -> get(event);
    };
  }

  /**
   * Moves this bucket's minute counts ({@link #minuteCount}) into {@code target} and leaves this
   * bucket empty. The caller must have claimed this bucket. Each counter is taken with {@link
   * LongAdder#sumThenReset}, so a concurrent add is moved or kept, never lost.
   *
   * @param target the minute bucket, or null to discard the counts
   */
  void drainInto(@Nullable MetricBucket target) {
    long passes = pass.sumThenReset() - ARRIVED.getAndSet(this, 0L) + occupiedPass.sumThenReset();
    long refusals = refused.sumThenReset();
    long exceptions = exception.sumThenReset();
    long completed = completions.sumThenReset();
    long min = minRt;
    minRt = DEFAULT_MIN_RT;
    if (target != null) {
      target.pass.add(passes);
      target.refused.add(refusals);
      target.exception.add(exceptions);
      target.completions.add(completed);
      if (min < target.minRt) {
        target.minRt = min;
      }
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
    if (event == MetricEvent.PASS) {
      return pass;
    }
    if (event == MetricEvent.REFUSE) {
      return refused;
    }
    if (event == MetricEvent.EXCEPTION) {
      return exception;
    }
    if (event == MetricEvent.OCCUPIED_PASS) {
      return occupiedPass;
    }
    throw new IllegalArgumentException("packed event " + event);
  }

  @Override
  public String toString() {
    return "MetricBucket{start="
        + startMs
        + ", pass="
        + pass.sum()
        + ", refused="
        + refused.sum()
        + ", occupiedPass="
        + occupiedPass.sum()
        + "}";
  }
}
