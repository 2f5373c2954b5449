package dev.guard.examples;

import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * The instants at which one endpoint's calls were admitted, to show how far apart passes are: a
 * paced endpoint admits at an even spacing, a fast-reject limit admits at the arrival rate until
 * the limit is reached and then refuses the rest of the window.
 *
 * <p>Thread-safe; recording is synchronized, which is fine at demo rates.
 */
final class AdmissionLog {

  private final long startNanos;
  private long[] elapsed = new long[256];
  private int size;

  /**
   * Creates an empty log.
   *
   * @param startNanos the time-source reading at the start of the run; admissions are kept as
   *     time since then, so sorting them is safe even if the nanosecond counter overflows
   */
  AdmissionLog(long startNanos) {
    this.startNanos = startNanos;
  }

  synchronized void record(long nowNanos) {
    if (size == elapsed.length) {
      elapsed = Arrays.copyOf(elapsed, size * 2);
    }
    elapsed[size++] = nowNanos - startNanos;
  }

  /**
   * The median time between consecutive admissions (in time order, whichever thread recorded
   * them), in milliseconds.
   *
   * @return the median gap, or empty with fewer than two admissions
   */
  synchronized OptionalDouble medianGapMillis() {
    if (size < 2) {
      return OptionalDouble.empty();
    }
    long[] sorted = Arrays.copyOf(elapsed, size);
    Arrays.sort(sorted);
    long[] gaps = new long[size - 1];
    for (int i = 1; i < size; i++) {
      gaps[i - 1] = sorted[i] - sorted[i - 1];
    }
    Arrays.sort(gaps);
    int middle = gaps.length / 2;
    double medianNanos = gaps.length % 2 == 1
        ? gaps[middle]
        : (gaps[middle - 1] + (double) gaps[middle]) / 2;
    return OptionalDouble.of(medianNanos / 1e6);
  }
}
