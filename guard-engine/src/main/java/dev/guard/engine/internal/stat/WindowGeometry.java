package dev.guard.engine.internal.stat;

/**
 * The shape of a sliding window: {@code sampleCount} buckets that together span {@code
 * intervalMs} milliseconds.
 *
 * <p>Invariant: {@code bucketLengthMs() × sampleCount == intervalMs}, so every bucket has the same
 * whole-millisecond length and bucket boundaries are the multiples of {@code bucketLengthMs()}.
 *
 * @param sampleCount the number of buckets; {@code > 0}
 * @param intervalMs the window length in milliseconds; {@code > 0} and a multiple of {@code
 *     sampleCount}
 */
public record WindowGeometry(int sampleCount, int intervalMs) {

  /** The default second-level window: 2 buckets of 500 ms. */
  public static final WindowGeometry SECOND_DEFAULT = new WindowGeometry(2, 1000);

  /** The minute-level window of every node: 60 buckets of 1 s. */
  public static final WindowGeometry MINUTE = new WindowGeometry(60, 60_000);

  /**
   * Validates the geometry.
   *
   * @param sampleCount the number of buckets; {@code > 0}
   * @param intervalMs the window length in milliseconds; a positive multiple of {@code sampleCount}
   * @throws IllegalArgumentException if a field is not positive or the interval is not divisible
   *     by the sample count; the message names the field and its value
   */
  public WindowGeometry {
    if (sampleCount <= 0) {
      throw invalid("sampleCount", sampleCount, "must be > 0");
    }
    if (intervalMs <= 0) {
      throw invalid("intervalMs", intervalMs, "must be > 0");
    }
    if (intervalMs % sampleCount != 0) {
      throw invalid("intervalMs", intervalMs, "must be a multiple of sampleCount " + sampleCount);
    }
  }

  /**
   * Returns the length of one bucket.
   *
   * @return {@code intervalMs / sampleCount}, in milliseconds
   */
  public int bucketLengthMs() {
    return intervalMs / sampleCount;
  }

  /**
   * Returns the window length in seconds, the divisor that turns a window sum into a rate.
   *
   * @return {@code intervalMs / 1000.0}
   */
  public double intervalSec() {
    return intervalMs / 1000.0;
  }

  private static IllegalArgumentException invalid(String field, int value, String must) {
    return new IllegalArgumentException(field + " " + must + ", was " + value);
  }
}
