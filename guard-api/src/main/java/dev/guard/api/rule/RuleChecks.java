package dev.guard.api.rule;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The one place where rule-validation messages are built: "field must be ..., was value". */
final class RuleChecks {

  private RuleChecks() {}

  static IllegalArgumentException invalid(String field, @Nullable Object value, String must) {
    return new IllegalArgumentException(field + " " + must + ", was " + value);
  }

  static String name(String field, @Nullable String value) {
    Objects.requireNonNull(value, field);
    if (value.isBlank()) {
      throw invalid(field, "'" + value + "'", "must not be blank");
    }
    return value;
  }

  static void nonNegative(String field, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw invalid(field, value, "must be finite and >= 0");
    }
  }

  static void positive(String field, Duration value) {
    Objects.requireNonNull(value, field);
    if (value.isNegative() || value.isZero()) {
      throw invalid(field, value, "must be positive");
    }
  }

  static void notNegative(String field, Duration value) {
    Objects.requireNonNull(value, field);
    if (value.isNegative()) {
      throw invalid(field, value, "must not be negative");
    }
  }
}
