package dev.guard.grpc;

import io.grpc.Metadata;
import io.grpc.Status;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Checks of the interceptors' settings, with messages in the form the rest of guard uses ("field
 * must ..., was value"); guard-api's own checks are not exported to this module.
 */
final class Options {

  private Options() {}

  static IllegalArgumentException invalid(String field, @Nullable Object value, String must) {
    return new IllegalArgumentException(field + " " + must + ", was " + value);
  }

  static String notBlank(String field, @Nullable String value) {
    Objects.requireNonNull(value, field);
    if (value.isBlank()) {
      throw invalid(field, "'" + value + "'", "must not be blank");
    }
    return value;
  }

  static int positive(String field, int value) {
    if (value <= 0) {
      throw invalid(field, value, "must be > 0");
    }
    return value;
  }

  /** An ASCII metadata key of this name (case-insensitive), or an error naming the field. */
  static Metadata.Key<String> asciiKey(String field, @Nullable String name) {
    notBlank(field, name);
    try {
      return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    } catch (IllegalArgumentException notAKey) {
      throw invalid(field, "'" + name + "'", "must be an ASCII metadata key (letters, digits, "
          + "'-', '_' and '.', not ending in -bin)");
    }
  }

  /** A copy of a set of status codes, for fast look-ups. */
  static Set<Status.Code> codes(String field, Set<Status.Code> codes) {
    Objects.requireNonNull(codes, field);
    EnumSet<Status.Code> copy = EnumSet.noneOf(Status.Code.class);
    for (Status.Code code : codes) {
      copy.add(Objects.requireNonNull(code, field));
    }
    return copy;
  }
}
