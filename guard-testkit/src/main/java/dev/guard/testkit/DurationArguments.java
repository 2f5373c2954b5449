package dev.guard.testkit;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;

/**
 * The one place where the test kit builds its argument-validation messages ("name must be ...,
 * was value") and formats nanosecond offsets for people to read.
 */
final class DurationArguments {

  private DurationArguments() {}

  static IllegalArgumentException invalid(String parameter, Object value, String must) {
    return new IllegalArgumentException(parameter + " " + must + ", was " + value);
  }

  /** A positive duration that fits in a {@code long} of nanoseconds, as nanoseconds. */
  static long positiveNanos(String parameter, Duration value) {
    long nanos = notNegativeNanos(parameter, value);
    if (nanos == 0) {
      throw invalid(parameter, value, "must be positive");
    }
    return nanos;
  }

  /** A duration of zero or more that fits in a {@code long} of nanoseconds, as nanoseconds. */
  static long notNegativeNanos(String parameter, Duration value) {
    Objects.requireNonNull(value, parameter);
    if (value.isNegative()) {
      throw invalid(parameter, value, "must not be negative");
    }
    try {
      return value.toNanos();
    } catch (ArithmeticException tooLarge) {
      throw invalid(parameter, value, "must fit in a long of nanoseconds");
    }
  }

  /** Nanoseconds as milliseconds without trailing zeros: 1_500_000_000 gives "1500". */
  static String millis(long nanos) {
    return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString();
  }
}
