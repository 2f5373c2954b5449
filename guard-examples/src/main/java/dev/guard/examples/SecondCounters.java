package dev.guard.examples;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Exact counts of passed and refused calls of one endpoint, per whole second since the start of
 * the run, and of the passed calls that failed. An outcome is filed under the second in which it became known (for a paced call: when
 * its wait ended). Outcomes after the last second land in one extra "late" slot, so the totals
 * still add up; outcomes before the start count for the first second.
 *
 * <p>Thread-safe: any number of callers may record while another thread reads.
 */
final class SecondCounters {

  private static final long SECOND_NANOS = 1_000_000_000L;

  private final long startNanos;
  private final int seconds;
  private final AtomicLongArray passed;
  private final AtomicLongArray refused;
  private final AtomicLongArray failed;

  /**
   * Creates counters for a run.
   *
   * @param startNanos the time-source reading at which second 0 begins
   * @param seconds the length of the run in seconds; positive
   */
  SecondCounters(long startNanos, int seconds) {
    if (seconds <= 0) {
      throw new IllegalArgumentException("seconds must be > 0, was " + seconds);
    }
    this.startNanos = startNanos;
    this.seconds = seconds;
    this.passed = new AtomicLongArray(seconds + 1);
    this.refused = new AtomicLongArray(seconds + 1);
    this.failed = new AtomicLongArray(seconds + 1);
  }

  void recordPass(long nowNanos) {
    passed.incrementAndGet(slot(nowNanos));
  }

  void recordRefused(long nowNanos) {
    refused.incrementAndGet(slot(nowNanos));
  }

  /** Records that a passed call failed; filed by when it started, like its pass. */
  void recordFailure(long startedNanos) {
    failed.incrementAndGet(slot(startedNanos));
  }

  /** The length of the run in seconds (the late slot not included). */
  int seconds() {
    return seconds;
  }

  /**
   * Passed calls in one second.
   *
   * @param second from 0 to {@link #seconds()}; {@code seconds()} reads the late slot
   * @return the count
   */
  long passed(int second) {
    return passed.get(second);
  }

  /**
   * Refused calls in one second.
   *
   * @param second from 0 to {@link #seconds()}; {@code seconds()} reads the late slot
   * @return the count
   */
  long refused(int second) {
    return refused.get(second);
  }

  long late() {
    return passed(seconds) + refused(seconds);
  }

  long totalPassed() {
    return sum(passed);
  }

  long totalRefused() {
    return sum(refused);
  }

  long totalFailed() {
    return sum(failed);
  }

  /** Passed calls per second, the late slot left out. */
  long[] passedPerSecond() {
    return perSecond(passed);
  }

  /** Passed calls that failed, per second, the late slot left out. */
  long[] failedPerSecond() {
    return perSecond(failed);
  }

  /** Refused calls per second, the late slot left out. */
  long[] refusedPerSecond() {
    return perSecond(refused);
  }

  private int slot(long nowNanos) {
    long elapsed = nowNanos - startNanos;
    if (elapsed < 0) {
      return 0;
    }
    return (int) Math.min(elapsed / SECOND_NANOS, seconds);
  }

  private long[] perSecond(AtomicLongArray counts) {
    long[] copy = new long[seconds];
    for (int i = 0; i < seconds; i++) {
      copy[i] = counts.get(i);
    }
    return copy;
  }

  private static long sum(AtomicLongArray counts) {
    long total = 0;
    for (int i = 0; i < counts.length(); i++) {
      total += counts.get(i);
    }
    return total;
  }
}
