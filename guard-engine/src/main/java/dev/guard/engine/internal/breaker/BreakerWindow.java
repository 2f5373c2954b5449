package dev.guard.engine.internal.breaker;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * A circuit breaker's own window: a ring of {@code buckets} buckets of {@code bucketMs}
 * milliseconds each counting completed calls and bad ones (slow or failed). A time {@code t >= 0}
 * falls in the bucket starting at {@code t − t mod bucketMs}, kept in slot {@code (t / bucketMs)
 * mod buckets}; sums count the buckets whose start lies within the last {@code buckets ×
 * bucketMs} milliseconds, so the window slides by one bucket at a time. One bucket gives a
 * tumbling window that empties at every multiple of its length.
 *
 * <p>Concurrency: counters are {@link LongAdder}s, so threads recording into one bucket do not
 * contend on one cache line. A stale slot is reset in place by the one thread that wins a
 * compare-and-set of its start to a "resetting" marker; others yield until the new start is
 * published. A caller whose time lies before the slot's start (it was delayed past a whole
 * window) gets no bucket and its outcome is dropped. {@link #clear} empties every bucket without
 * a claim, so an outcome recorded at that very moment may survive it or be lost: the tolerance
 * all live statistics have.
 *
 * <p>Each bucket also carries a {@code warm} flag, set by the breaker once a check made while the
 * bucket was current saw at least the rule's minimum calls in the window (see {@link Breaker}).
 */
final class BreakerWindow {

  private static final long EMPTY = Long.MIN_VALUE;
  private static final long RESETTING = -1L; // engine time is never negative

  /** One bucket: its start, its counts and whether the window has been seen warm from it. */
  static final class Bucket {
    private static final AtomicLongFieldUpdater<Bucket> START =
        AtomicLongFieldUpdater.newUpdater(Bucket.class, "start");

    volatile long start = EMPTY;
    final LongAdder calls = new LongAdder();
    final LongAdder bad = new LongAdder();
    /** A check made while this bucket was current saw the window hold the minimum calls. */
    volatile boolean warm;

    void empty() {
      calls.reset();
      bad.reset();
      warm = false;
    }
  }

  private final Bucket[] buckets;
  private final long bucketMs;
  private final long intervalMs;
  private @Nullable Bucket latest; // racy cache of the bucket handed out last

  BreakerWindow(int bucketCount, long intervalMs) {
    this.buckets = new Bucket[bucketCount];
    for (int i = 0; i < bucketCount; i++) {
      buckets[i] = new Bucket();
    }
    this.intervalMs = intervalMs;
    this.bucketMs = intervalMs / bucketCount;
  }

  /**
   * Records one completed call.
   *
   * @param nowMs when it completed, engine milliseconds
   * @param isBad whether it was slow or failed
   * @return the bucket it went to, or null when it was dropped
   */
  @Nullable Bucket record(long nowMs, boolean isBad) {
    Bucket bucket = current(nowMs);
    if (bucket != null) {
      bucket.calls.increment();
      if (isBad) {
        bucket.bad.increment();
      }
    }
    return bucket;
  }

  private @Nullable Bucket current(long nowMs) {
    Bucket last = latest;
    if (last != null) {
      long start = last.start;
      if (start >= 0 && nowMs >= start && nowMs - start < bucketMs) {
        return last;
      }
    }
    long start = nowMs - nowMs % bucketMs;
    Bucket bucket = buckets[(int) ((nowMs / bucketMs) % buckets.length)];
    while (true) {
      long seen = bucket.start;
      if (seen == start) {
        latest = bucket;
        return bucket;
      }
      if (seen == RESETTING) {
        Thread.yield();
      } else if (seen > start) {
        return null;
      } else if (Bucket.START.compareAndSet(bucket, seen, RESETTING)) {
        bucket.empty();
        bucket.start = start;
        latest = bucket;
        return bucket;
      }
    }
  }

  /** Completed calls in the window at {@code nowMs}. */
  long calls(long nowMs) {
    long sum = 0;
    for (Bucket bucket : buckets) {
      if (inWindow(bucket.start, nowMs)) {
        sum += bucket.calls.sum();
      }
    }
    return sum;
  }

  /** Bad calls in the window at {@code nowMs}. */
  long bad(long nowMs) {
    long sum = 0;
    for (Bucket bucket : buckets) {
      if (inWindow(bucket.start, nowMs)) {
        sum += bucket.bad.sum();
      }
    }
    return sum;
  }

  private boolean inWindow(long start, long nowMs) {
    return start >= 0 && start <= nowMs && nowMs - start < intervalMs;
  }

  /** Empties every bucket. */
  void clear() {
    for (Bucket bucket : buckets) {
      bucket.empty();
    }
  }
}
