package dev.guard.testkit.internal;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;

/**
 * The one place where the test kit builds its argument-validation messages ("name must be ...,
 * was value") and formats nanosecond offsets for people to read. Public only for the test kit's
 * own modules (the package is exported to them alone); not an API.
 */
public final class DurationArguments {

  private DurationArguments() {}

  /**
   * The exception for an invalid argument, with a message that names it and its value.
   *
   * @param parameter the argument's name
   * @param value what was given
   * @param must what the argument must be, such as {@code "must be positive"}
   * @return the exception, for the caller to throw
   */
  public static IllegalArgumentException invalid(String parameter, Object value, String must) {
    return new IllegalArgumentException(parameter + " " + must + ", was " + value);
  }

  /**
   * A positive duration that fits in a {@code long} of nanoseconds, as nanoseconds.
   *
   * @param parameter the argument's name, for the message
   * @param value the duration
   * @return the duration in nanoseconds
   * @throws IllegalArgumentException if the duration is zero, negative or too long
   */
  public static long positiveNanos(String parameter, Duration value) {
    long nanos = notNegativeNanos(parameter, value);
    if (nanos == 0) {
      throw invalid(parameter, value, "must be positive");
    }
    return nanos;
  }

  /**
   * A duration of zero or more that fits in a {@code long} of nanoseconds, as nanoseconds.
   *
   * @param parameter the argument's name, for the message
   * @param value the duration
   * @return the duration in nanoseconds
   * @throws IllegalArgumentException if the duration is negative or too long
   */
  public static long notNegativeNanos(String parameter, Duration value) {
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

  /**
   * Nanoseconds as milliseconds without trailing zeros: 1_500_000_000 gives "1500".
   *
   * @param nanos the nanoseconds
   * @return the milliseconds, as text
   */
  public static String millis(long nanos) {
    return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString();
  }
}
