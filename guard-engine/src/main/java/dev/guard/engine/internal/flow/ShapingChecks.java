package dev.guard.engine.internal.flow;

import java.time.Duration;
import java.util.Objects;

/**
 * Argument checks shared by the traffic-shaping controllers, so every message reads "name must be
 * ..., was value". Rules are validated before they reach an engine; these checks only stop a
 * controller from being built on values its arithmetic cannot handle.
 */
final class ShapingChecks {

  /** The longest spacing or queueing bound a controller works with: about 73 years. */
  static final long MAX_NANOS = Long.MAX_VALUE / 4;

  private ShapingChecks() {}

  static double count(double count) {
    if (!(count >= 0) || Double.isInfinite(count)) {
      throw new IllegalArgumentException("count must be finite and >= 0, was " + count);
    }
    return count;
  }

  static int coldFactor(int coldFactor) {
    if (coldFactor <= 1) {
      throw new IllegalArgumentException("coldFactor must be > 1, was " + coldFactor);
    }
    return coldFactor;
  }

  static Duration notNegative(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative, was " + value);
    }
    return value;
  }

  /** A non-negative duration in nanoseconds, capped at {@link #MAX_NANOS}. */
  static long cappedNanos(Duration value) {
    if (value.getSeconds() >= MAX_NANOS / 1_000_000_000L) {
      return MAX_NANOS;
    }
    return value.toNanos();
  }

  /** A non-negative duration in (fractional) seconds. */
  static double seconds(Duration value) {
    return value.getSeconds() + value.getNano() / 1e9;
  }

  /**
   * The time {@code permits} take at {@code rate} per second, in nanoseconds, rounded half up and
   * capped at {@link #MAX_NANOS}.
   */
  static long spacingNanos(int permits, double rate) {
    double nanos = 1e9 * permits / rate;
    return nanos >= MAX_NANOS ? MAX_NANOS : Math.round(nanos);
  }
}
