package dev.guard.api.internal;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one place where guard builds its validation errors, so that every module reports bad input
 * the same way: an {@link IllegalArgumentException} whose message names the field and the value,
 * {@code "qps must be finite and >= 0, was -5.0"}. Adapters and rule formats that validate their
 * own input use it too.
 */
public final class Checks {

  private Checks() {}

  /**
   * Builds the error for an invalid value.
   *
   * @param field the name of the field or option, as the user wrote it
   * @param value the value given
   * @param must what the value must be ("must be positive")
   * @return the error to throw
   */
  public static IllegalArgumentException invalid(
      String field, @Nullable Object value, String must) {
    return new IllegalArgumentException(field + " " + must + ", was " + value);
  }

  /**
   * Checks a name.
   *
   * @param field the field name
   * @param value the value
   * @return the value
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is blank
   */
  public static String notBlank(String field, @Nullable String value) {
    Objects.requireNonNull(value, field);
    if (value.isBlank()) {
      throw invalid(field, "'" + value + "'", "must not be blank");
    }
    return value;
  }

  /**
   * Checks a finite, non-negative number.
   *
   * @param field the field name
   * @param value the value
   * @return the value
   * @throws IllegalArgumentException if {@code value} is negative, NaN or infinite
   */
  public static double finiteNonNegative(String field, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw invalid(field, value, "must be finite and >= 0");
    }
    return value;
  }

  /**
   * Checks a non-negative count.
   *
   * @param field the field name
   * @param value the value
   * @return the value
   * @throws IllegalArgumentException if {@code value} is negative
   */
  public static int nonNegative(String field, int value) {
    if (value < 0) {
      throw invalid(field, value, "must be >= 0");
    }
    return value;
  }

  /**
   * Checks a positive count.
   *
   * @param field the field name
   * @param value the value
   * @return the value
   * @throws IllegalArgumentException if {@code value} is not positive
   */
  public static int positive(String field, int value) {
    if (value <= 0) {
      throw invalid(field, value, "must be > 0");
    }
    return value;
  }

  /**
   * Checks a positive duration.
   *
   * @param field the field name
   * @param value the value
   * @return the value
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is zero or negative
   */
  public static Duration positive(String field, @Nullable Duration value) {
    Objects.requireNonNull(value, field);
    if (value.isNegative() || value.isZero()) {
      throw invalid(field, value, "must be positive");
    }
    return value;
  }

  /**
   * Checks a duration that may be zero.
   *
   * @param field the field name
   * @param value the value
   * @return the value
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is negative
   */
  public static Duration notNegative(String field, @Nullable Duration value) {
    Objects.requireNonNull(value, field);
    if (value.isNegative()) {
      throw invalid(field, value, "must not be negative");
    }
    return value;
  }

  /**
   * Checks an upper bound of a duration (its lower bound is checked separately).
   *
   * @param field the field name
   * @param value the value
   * @param max the longest value allowed
   * @return the value
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is longer than {@code max}
   */
  public static Duration atMost(String field, @Nullable Duration value, Duration max) {
    Objects.requireNonNull(value, field);
    if (value.compareTo(max) > 0) {
      throw invalid(field, value, "must be at most " + max);
    }
    return value;
  }

  /**
   * Checks an upper bound of a number (its lower bound is checked separately).
   *
   * @param field the field name
   * @param value the value
   * @param max the largest value allowed
   * @return the value
   * @throws IllegalArgumentException if {@code value} is greater than {@code max}
   */
  public static double atMost(String field, double value, double max) {
    if (value > max) {
      throw invalid(field, value, "must be at most " + number(max));
    }
    return value;
  }

  /**
   * Checks an upper bound of a whole number (its lower bound is checked separately).
   *
   * @param field the field name
   * @param value the value
   * @param max the largest value allowed
   * @return the value
   * @throws IllegalArgumentException if {@code value} is greater than {@code max}
   */
  public static int atMost(String field, int value, int max) {
    if (value > max) {
      throw invalid(field, value, "must be at most " + max);
    }
    return value;
  }

  /**
   * Checks that a duration is a whole number of milliseconds.
   *
   * @param field the field name
   * @param value the value
   * @return the value
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} has a fraction of a millisecond
   */
  public static Duration wholeMillis(String field, @Nullable Duration value) {
    Objects.requireNonNull(value, field);
    if (value.getNano() % 1_000_000 != 0) {
      throw invalid(field, value, "must be whole milliseconds");
    }
    return value;
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value) : Double.toString(value);
  }
}
