package dev.guard.engine.internal.stat;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * A sliding window kept as a ring of {@link MetricBucket}s (docs/BEHAVIOUR.md, "Statistics").
 *
 * <p>Geometry: {@code sampleCount} buckets of {@code w = bucketLengthMs} milliseconds; {@code w ×
 * sampleCount = interval}. A time {@code t >= 0} falls in the bucket starting at {@code t − (t mod
 * w)}, which lives in slot {@code (t / w) mod sampleCount}. One slot therefore serves the starts
 * {@code s, s + interval, s + 2·interval, …} in turn.
 *
 * <p>{@link #currentWindow} returns the bucket for {@code t}: it creates the slot's bucket on first
 * use (compare-and-set into the slot array; a loser retries and uses the winner's bucket), returns
 * it as is when its start matches, resets it in place when it is stale, and hands out a detached
 * throw-away bucket when the slot already holds a later start (the clock went backwards, or a
 * caller is far behind). A bucket is <em>deprecated</em> at {@code t} iff {@code t − start >
 * interval} (strictly); sums and lookups ignore deprecated buckets and empty slots.
 *
 * <p>Concurrency: there is no ring-wide lock. A stale bucket is reset by the one thread that wins a
 * compare-and-set of the bucket's start from the stale value to a "resetting" marker (see {@link
 * MetricBucket}); the winner empties the counters ({@link #retire}: the plain ring discards them, a
 * second-level ring rolls them up into its minute window), lets {@link #prepare} pre-fill them, and
 * then publishes the new start. Threads that lose, or that see the marker, yield and retry, which is
 * brief because the reset does a fixed, small amount of work. (A claim on the bucket itself is
 * preferred to a per-ring try-lock: resets of different slots never wait for each other, and no
 * lock object exists.) The steady-state path (the slot
 * already holds the current bucket) is two volatile reads: no lock, no allocation. Sums loop over
 * the slot array directly, allocating nothing; they read counters without a snapshot, so a sum
 * taken during concurrent writes is approximate, as all live statistics are.
 *
 * <p>A write made by a thread that read the current bucket and was then delayed by a whole interval
 * can land in a bucket that has meanwhile been reset for a later time; such rare misplaced counts
 * are tolerated.
 */
public class BucketRing {

  private final WindowGeometry geometry;
  private final int sampleCount;
  private final long bucketLengthMs;
  private final long intervalMs;
  private final AtomicReferenceArray<@Nullable MetricBucket> slots;
  // The bucket handed out last: checking its start answers most lookups without the divisions of
  // the slot arithmetic. A stale or racy value only sends a lookup down the slow path.
  private @Nullable MetricBucket latest;

  /**
   * Creates an empty ring.
   *
   * @param geometry the bucket count and interval
   */
  public BucketRing(WindowGeometry geometry) {
    this.geometry = Objects.requireNonNull(geometry, "geometry");
    this.sampleCount = geometry.sampleCount();
    this.bucketLengthMs = geometry.bucketLengthMs();
    this.intervalMs = geometry.intervalMs();
    this.slots = new AtomicReferenceArray<>(sampleCount);
  }

  /**
   * Returns the ring's geometry.
   *
   * @return the geometry
   */
  public final WindowGeometry geometry() {
    return geometry;
  }

  /**
   * Returns the bucket that {@code nowMs} falls in, creating or resetting the slot as needed.
   *
   * @param nowMs the time in milliseconds; a negative time gets a detached bucket
   * @return the current bucket; a detached bucket (whose counts are lost) when the slot holds a
   *     later start or {@code nowMs} is negative
   */
  public final MetricBucket currentWindow(long nowMs) {
    MetricBucket bucket = attachedWindow(nowMs);
    return bucket != null ? bucket : new MetricBucket(startOf(nowMs));
  }

  /**
   * Returns the bucket that {@code nowMs} falls in, like {@link #currentWindow}, but null where
   * that method would hand out a detached bucket. Allocates only when it fills an empty slot.
   *
   * @param nowMs the time in milliseconds
   * @return the current bucket, or null when the slot holds a later start or {@code nowMs} is
   *     negative
   */
  public final @Nullable MetricBucket attachedWindow(long nowMs) {
    MetricBucket last = latest;
    if (last != null) {
      long lastStart = last.startMs();
      if (lastStart >= 0 && nowMs >= lastStart && nowMs - lastStart < bucketLengthMs) {
        return last;
      }
    }
    if (nowMs < 0) {
      return null;
    }
    MetricBucket found = lookUp(nowMs);
    if (found != null) {
      latest = found;
    }
    return found;
  }

  private @Nullable MetricBucket lookUp(long nowMs) {
    long start = startOf(nowMs);
    int idx = indexOf(nowMs);
    while (true) {
      MetricBucket bucket = slots.get(idx);
      if (bucket == null) {
        MetricBucket fresh = new MetricBucket(start);
        prepare(fresh, start);
        if (slots.compareAndSet(idx, null, fresh)) {
          return fresh;
        }
        continue;
      }
      long seen = bucket.startMs();
      if (seen == start) {
        return bucket;
      }
      if (seen > start) {
        return null;
      }
      if (seen != MetricBucket.RESETTING && bucket.tryClaim(seen)) {
        try {
          retire(bucket, seen, start);
          prepare(bucket, start);
        } finally {
          bucket.publish(start); // never leave the slot claimed, or other threads would spin
        }
        return bucket;
      }
      backOff();
    }
  }

  /**
   * Sums one event over the buckets that are valid at {@code nowMs}, after bringing the current
   * slot up to date.
   *
   * @param nowMs the time in milliseconds
   * @param event the event to sum
   * @return the sum; 0 for a negative time
   */
  public final long sum(long nowMs, MetricEvent event) {
    if (nowMs < 0) {
      return 0L;
    }
    currentWindow(nowMs);
    long total = 0L;
    for (int i = 0; i < sampleCount; i++) {
      MetricBucket bucket = slots.get(i);
      if (bucket != null && isValid(nowMs, bucket.startMs())) {
        total += bucket.get(event);
      }
    }
    return total;
  }

  /**
   * Returns the smallest of one count over every bucket the ring holds, stale ones included,
   * without touching any slot (for invariant checks: no count ever goes below zero).
   *
   * @param count reads the count of a bucket
   * @return the minimum; 0 when the ring holds no bucket
   */
  final long lowest(ToLongFunction<MetricBucket> count) {
    long min = 0L;
    for (int i = 0; i < sampleCount; i++) {
      MetricBucket bucket = slots.get(i);
      if (bucket != null) {
        min = Math.min(min, count.applyAsLong(bucket));
      }
    }
    return min;
  }

  /**
   * Returns the largest per-bucket count of one event over the valid buckets.
   *
   * @param nowMs the time in milliseconds
   * @param event the event
   * @return the maximum; 0 when no bucket is valid
   */
  public final long max(long nowMs, MetricEvent event) {
    if (nowMs < 0) {
      return 0L;
    }
    currentWindow(nowMs);
    long max = 0L;
    for (int i = 0; i < sampleCount; i++) {
      MetricBucket bucket = slots.get(i);
      if (bucket != null && isValid(nowMs, bucket.startMs())) {
        max = Math.max(max, bucket.get(event));
      }
    }
    return max;
  }

  /**
   * Returns the smallest bucket {@code minRt} over the valid buckets.
   *
   * @param nowMs the time in milliseconds
   * @return the minimum in milliseconds; {@link MetricBucket#DEFAULT_MIN_RT} when there is no data
   */
  public final long minRt(long nowMs) {
    long min = MetricBucket.DEFAULT_MIN_RT;
    if (nowMs < 0) {
      return min;
    }
    currentWindow(nowMs);
    for (int i = 0; i < sampleCount; i++) {
      MetricBucket bucket = slots.get(i);
      if (bucket != null && isValid(nowMs, bucket.startMs())) {
        min = Math.min(min, bucket.minRt());
      }
    }
    return min;
  }

  /**
   * Returns the bucket one bucket length before {@code nowMs}'s bucket, without touching any slot.
   *
   * @param nowMs the time in milliseconds
   * @return the previous bucket, or null if its slot is empty, deprecated at {@code nowMs}, or holds
   *     an older cycle's bucket
   */
  public final @Nullable MetricBucket previousWindow(long nowMs) {
    long previous = nowMs - bucketLengthMs;
    if (previous < 0) {
      return null;
    }
    MetricBucket bucket = slots.get(indexOf(previous));
    if (bucket == null) {
      return null;
    }
    long start = bucket.startMs();
    if (!isValid(nowMs, start) || start + bucketLengthMs < previous) {
      return null;
    }
    return bucket;
  }

  /**
   * Returns the bucket whose span contains {@code timeMs}, if its slot holds exactly that bucket.
   *
   * @param timeMs the time in milliseconds
   * @return the bucket, or null if the slot is empty or holds another start
   */
  public final @Nullable MetricBucket windowValue(long timeMs) {
    if (timeMs < 0) {
      return null;
    }
    MetricBucket bucket = slots.get(indexOf(timeMs));
    if (bucket == null) {
      return null;
    }
    long start = bucket.startMs();
    return start >= 0 && start <= timeMs && timeMs < start + bucketLengthMs ? bucket : null;
  }

  /**
   * Returns the oldest bucket of the ring: the one in the slot after {@code nowMs}'s slot.
   *
   * @param nowMs the time in milliseconds
   * @return the bucket, or null if that slot is empty or its bucket is deprecated at {@code nowMs}
   */
  public final @Nullable MetricBucket validHead(long nowMs) {
    if (nowMs < 0) {
      return null;
    }
    MetricBucket bucket = slots.get(indexOf(nowMs + bucketLengthMs));
    return bucket != null && isValid(nowMs, bucket.startMs()) ? bucket : null;
  }

  /**
   * Tells whether a bucket that starts at {@code startMs} no longer counts at {@code nowMs}.
   *
   * @param nowMs the time in milliseconds
   * @param startMs a bucket start (non-negative)
   * @return true iff {@code nowMs − startMs > interval}
   */
  protected boolean isDeprecated(long nowMs, long startMs) {
    return nowMs - startMs > intervalMs;
  }

  /**
   * Sums {@link MetricBucket#minuteCount} of one event over the buckets whose start lies in {@code
   * [fromMs, toMs)}, whether or not they are deprecated, without touching any slot. Buckets being
   * reset are skipped.
   *
   * @param fromMs the first start, in milliseconds; a non-negative multiple of the bucket length
   * @param toMs the end of the range (exclusive), in milliseconds; {@code > fromMs}
   * @param event the event
   * @return the sum
   */
  /**
   * Adds the minute counts of the buckets that start in {@code [fromMs, toMs)} to {@code out}
   * (see {@link StatisticNode#readSecond}) and lowers {@code out[MIN_RT]} by their minimum RT.
   */
  final void addSecondOfStarts(long fromMs, long toMs, long[] out) {
    long span = (toMs - fromMs - 1) / bucketLengthMs + 1;
    int candidates = (int) Math.min(sampleCount, span);
    int first = indexOf(fromMs);
    for (int i = 0; i < candidates; i++) {
      MetricBucket bucket = slots.get((first + i) % sampleCount);
      if (bucket != null) {
        long start = bucket.startMs();
        if (start >= fromMs && start < toMs) {
          StatisticNode.addTo(bucket, out, true);
        }
      }
    }
  }

  final long minuteCountOfStarts(long fromMs, long toMs, MetricEvent event) {
    long span = (toMs - fromMs - 1) / bucketLengthMs + 1; // no overflow for toMs = Long.MAX_VALUE
    int candidates = (int) Math.min(sampleCount, span);
    int first = indexOf(fromMs);
    long total = 0L;
    for (int i = 0; i < candidates; i++) {
      MetricBucket bucket = slots.get((first + i) % sampleCount);
      if (bucket != null) {
        long start = bucket.startMs();
        if (start >= fromMs && start < toMs) {
          total += bucket.minuteCount(event);
        }
      }
    }
    return total;
  }

  /**
   * Empties a stale bucket that the caller has claimed, before it is reused for {@code
   * newStartMs}; {@link #prepare} runs next. The plain ring discards the counts.
   *
   * @param bucket the claimed bucket, still holding the counts of {@code oldStartMs}
   * @param oldStartMs the start the bucket had
   * @param newStartMs the start it will have
   */
  protected void retire(MetricBucket bucket, long oldStartMs, long newStartMs) {
    bucket.clear();
  }

  /**
   * Fills a bucket that is about to be installed or re-published for {@code startMs}; called while
   * no other thread can see the bucket's counters as current. The plain ring leaves it empty.
   *
   * @param bucket the empty bucket
   * @param startMs the start it will have
   */
  protected void prepare(MetricBucket bucket, long startMs) {}

  // Another thread owns the slot for a few instructions; give way rather than burn the CPU it may
  // need (threads can outnumber cores). Sleeping is out of the question: this is the pass path.
  @SuppressWarnings("ThreadPriorityCheck")
  private static void backOff() {
    Thread.yield();
  }

  private boolean isValid(long nowMs, long startMs) {
    return startMs >= 0 && !isDeprecated(nowMs, startMs);
  }

  private int indexOf(long timeMs) {
    return (int) ((timeMs / bucketLengthMs) % sampleCount);
  }

  final long startOf(long timeMs) {
    return timeMs - Math.floorMod(timeMs, bucketLengthMs);
  }
}
