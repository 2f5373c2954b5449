package dev.guard.engine.internal.stat;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Refused permits of one resource per second and per kind of protection, for the metrics history.
 * A resource gets this only when it is first refused, so a resource that is never refused pays
 * nothing, and it is written only on the refusal path, so admitted calls pay nothing.
 *
 * <p>A ring of {@value #SLOTS} seconds (more than the minute window the history collector reads
 * from). Each slot holds its second's start and one counter per kind. A writer whose slot holds an
 * older second claims it (start set to {@link #CLAIMED} with a compare-and-set), zeroes it and
 * publishes the new start; other writers of that second wait for the publication. A reader takes a
 * slot's counters only when its start is the second asked for, before and after reading.
 */
public final class RefusalKindCounts {

  /** Seconds in the ring. */
  static final int SLOTS = 64;

  private static final long CLAIMED = -2L;
  private static final long EMPTY = -1L;

  private final int kinds;
  private final AtomicLongArray starts = new AtomicLongArray(SLOTS);
  private final AtomicLongArray counts;

  /**
   * Creates an empty ring.
   *
   * @param kinds the number of kinds counted
   */
  public RefusalKindCounts(int kinds) {
    this.kinds = kinds;
    this.counts = new AtomicLongArray(SLOTS * kinds);
    for (int i = 0; i < SLOTS; i++) {
      starts.set(i, EMPTY);
    }
  }

  /**
   * Adds refused permits.
   *
   * @param nowMs engine time in milliseconds; {@code >= 0}
   * @param kind the kind's ordinal
   * @param n the permits
   */
  public void add(long nowMs, int kind, long n) {
    long second = nowMs - nowMs % 1000L;
    int slot = (int) ((second / 1000L) % SLOTS);
    while (true) {
      long start = starts.get(slot);
      if (start == second) {
        counts.addAndGet(slot * kinds + kind, n);
        return;
      }
      if (start > second) {
        return; // the slot moved on to a later second: this late write is dropped
      }
      if (start != CLAIMED && starts.compareAndSet(slot, start, CLAIMED)) {
        for (int k = 0; k < kinds; k++) {
          counts.set(slot * kinds + k, 0L);
        }
        starts.set(slot, second);
      } else {
        Thread.onSpinWait();
      }
    }
  }

  /**
   * Reads the refused permits of one second into {@code out[0..kinds)}; zeros when the ring no
   * longer (or not yet) holds that second.
   *
   * @param secondMs the second's start in milliseconds
   * @param out where the counts go
   */
  public void read(long secondMs, long[] out) {
    int slot = (int) ((secondMs / 1000L) % SLOTS);
    for (int k = 0; k < kinds; k++) {
      out[k] = 0L;
    }
    if (starts.get(slot) != secondMs) {
      return;
    }
    for (int k = 0; k < kinds; k++) {
      out[k] = counts.get(slot * kinds + k);
    }
    if (starts.get(slot) != secondMs) {
      for (int k = 0; k < kinds; k++) {
        out[k] = 0L;
      }
    }
  }
}
