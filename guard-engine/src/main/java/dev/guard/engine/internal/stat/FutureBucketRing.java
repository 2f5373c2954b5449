package dev.guard.engine.internal.stat;

import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jspecify.annotations.Nullable;

/**
 * The "future" half of an {@link OccupiableBucketRing}: the passes that prioritized calls borrowed
 * from buckets that have not started yet, one count per bucket start (docs/BEHAVIOUR.md, "Flow
 * rules").
 *
 * <p>Each slot holds an immutable {@link Borrowed} record (start, passes still waiting, whether the
 * main ring has taken them), replaced by compare-and-set. A borrow adding passes, a cancel taking
 * them back and the start of the bucket taking them ({@link #deliver}) are therefore each one
 * atomic step, and exactly one of "taken back" and "delivered" happens to every pass: a cancel
 * knows whether the main ring counted the passes it gives back. A delivered record is frozen; its
 * count is what the main bucket received.
 *
 * <p>The ring has twice as many slots as the main ring, so the record of a start {@code s} is
 * replaced only by a borrow for {@code s + 2 × interval}. A borrow waits less than one interval, so
 * that borrow is made after {@code s + interval}, when bucket {@code s} has left the window: a
 * record is never lost while its bucket still counts. Times are non-negative milliseconds.
 *
 * <p>Thread-safe and lock-free. Reads and the delivery of a start nobody borrowed from allocate
 * nothing; a change allocates one record (borrowing is the slow path).
 */
final class FutureBucketRing {

  /** The record of the start was open: the change was made. */
  static final int OPEN = 0;

  /** The main ring has taken the start's passes: nothing was changed. */
  static final int DELIVERED = 1;

  /** The slot holds a later start (the bucket has left every window): nothing was changed. */
  static final int GONE = 2;

  /** The passes borrowed from the bucket starting at {@code startMs}. */
  private record Borrowed(long startMs, long pending, boolean delivered) {}

  private final long bucketLengthMs;
  private final AtomicReferenceArray<@Nullable Borrowed> slots;

  /**
   * Creates an empty future ring.
   *
   * @param geometry the geometry of the main ring it serves
   */
  FutureBucketRing(WindowGeometry geometry) {
    this.bucketLengthMs = geometry.bucketLengthMs();
    this.slots = new AtomicReferenceArray<>(2 * geometry.sampleCount());
  }

  /**
   * Sums the passes still waiting for buckets that start after {@code nowMs}.
   *
   * @param nowMs the time in milliseconds
   * @return the waiting passes
   */
  long waiting(long nowMs) {
    long total = 0L;
    for (int i = 0; i < slots.length(); i++) {
      Borrowed borrowed = slots.get(i);
      if (borrowed != null && !borrowed.delivered() && borrowed.startMs() > nowMs) {
        total += borrowed.pending();
      }
    }
    return total;
  }

  /**
   * Returns the smallest count of any record, delivered or not (for invariant checks).
   *
   * @return the minimum; 0 when there is no record
   */
  long lowestCount() {
    long min = 0L;
    for (int i = 0; i < slots.length(); i++) {
      Borrowed borrowed = slots.get(i);
      if (borrowed != null) {
        min = Math.min(min, borrowed.pending());
      }
    }
    return min;
  }

  /**
   * Adds {@code n} waiting passes to the bucket starting at {@code startMs}, unless the main ring
   * has taken its passes already.
   *
   * @param startMs a bucket start
   * @param n the passes
   * @return {@link #OPEN} (added), {@link #DELIVERED} or {@link #GONE} (not added)
   */
  int add(long startMs, int n) {
    int idx = indexOf(startMs);
    while (true) {
      Borrowed seen = slots.get(idx);
      Borrowed next;
      if (seen == null || seen.startMs() < startMs) {
        next = new Borrowed(startMs, n, false); // an older record's passes never arrived
      } else if (seen.startMs() > startMs) {
        return GONE;
      } else if (seen.delivered()) {
        return DELIVERED;
      } else {
        next = new Borrowed(startMs, seen.pending() + n, false);
      }
      if (slots.compareAndSet(idx, seen, next)) {
        return OPEN;
      }
    }
  }

  /**
   * Takes back {@code n} passes that {@link #add} added for {@code startMs}, unless the main ring
   * has taken them.
   *
   * @param startMs the start given to {@link #add}
   * @param n the passes given to {@link #add}
   * @return {@link #OPEN} (taken back), {@link #DELIVERED} (the main bucket holds them) or {@link
   *     #GONE} (they are nowhere any more)
   */
  int take(long startMs, int n) {
    int idx = indexOf(startMs);
    while (true) {
      Borrowed seen = slots.get(idx);
      if (seen == null || seen.startMs() != startMs) {
        return GONE;
      }
      if (seen.delivered()) {
        return DELIVERED;
      }
      Borrowed next = new Borrowed(startMs, seen.pending() - n, false);
      if (slots.compareAndSet(idx, seen, next)) {
        return OPEN;
      }
    }
  }

  /**
   * Hands the passes borrowed from the bucket starting at {@code startMs} to the main ring, which
   * is starting that bucket. Later calls for the same start return the same count.
   *
   * @param startMs the start of the main bucket being prepared
   * @return the passes it receives
   */
  long deliver(long startMs) {
    int idx = indexOf(startMs);
    while (true) {
      Borrowed seen = slots.get(idx);
      if (seen == null || seen.startMs() != startMs) {
        return 0L;
      }
      if (seen.delivered()
          || slots.compareAndSet(idx, seen, new Borrowed(startMs, seen.pending(), true))) {
        return seen.pending();
      }
    }
  }

  private int indexOf(long timeMs) {
    return (int) Math.floorMod(timeMs / bucketLengthMs, (long) slots.length());
  }
}
