package dev.guard.rules.internal;

import java.time.Duration;
import tools.jackson.databind.node.ObjectNode;

/** Small helpers for writing values the way the format reads them. */
public final class Json {

  private Json() {}

  /** Writes a number, whole numbers without a fraction ({@code 50}, not {@code 50.0}). */
  public static void number(ObjectNode out, String field, double value) {
    boolean negativeZero = value == 0 && Double.doubleToRawLongBits(value) != 0;
    if (value == Math.rint(value) && Math.abs(value) < 1e15 && !negativeZero) {
      out.put(field, (long) value);
    } else {
      out.put(field, value);
    }
  }

  /** Writes a duration as an ISO-8601 string ({@code "PT0.5S"}). */
  public static void duration(ObjectNode out, String field, Duration value) {
    out.put(field, value.toString());
  }
}
