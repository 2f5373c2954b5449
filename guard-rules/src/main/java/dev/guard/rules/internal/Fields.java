package dev.guard.rules.internal;

import java.time.DateTimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the fields of one JSON object of a rules document, recording every problem with its path
 * instead of stopping at the first: wrong types, missing and unknown fields, and the rule
 * records' own validation errors, whose messages ("count must be finite and >= 0, was -5.0") are
 * re-addressed to the JSON field they came from ("rules.flow[3].qps: must be finite and >= 0, was
 * -5").
 *
 * <p>A JSON {@code null} reads as an absent field. Reading a field marks it as known; {@link
 * #finish()} reports the fields nobody read.
 */
public final class Fields {

  private static final int MAX_VALUE_CHARS = 80;

  private final ObjectNode node;
  private final String path;
  private final Problems problems;
  private final int problemsBefore;
  private final Set<String> known = new LinkedHashSet<>();

  /**
   * Starts reading an object.
   *
   * @param node the object
   * @param path its path in the document
   * @param problems where errors go
   */
  public Fields(ObjectNode node, String path, Problems problems) {
    this.node = node;
    this.path = path;
    this.problems = problems;
    this.problemsBefore = problems.count();
  }

  /** The object's path. */
  public String path() {
    return path;
  }

  /** The path of one of its fields. */
  public String path(String field) {
    return path + "." + field;
  }

  /** Records an error at a field. */
  public void error(String field, String message) {
    problems.add(path(field), message);
  }

  /** Records an error about the object as a whole. */
  public void error(String message) {
    problems.add(path, message);
  }

  /** Whether no error was recorded for this object (and what was read inside it) so far. */
  public boolean clean() {
    return problems.count() == problemsBefore;
  }

  private @Nullable JsonNode value(String field) {
    known.add(field);
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value;
  }

  /** Whether the field is present (and not null). */
  public boolean has(String field) {
    return value(field) != null;
  }

  /** A string field; null when absent or of the wrong type (an error is recorded then). */
  public @Nullable String string(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (!value.isString()) {
      error(field, "must be a string, was " + show(value));
      return null;
    }
    return value.stringValue();
  }

  /** A number field; null when absent or of the wrong type. -0 reads as 0. */
  public @Nullable Double number(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (!value.isNumber()) {
      error(field, "must be a number, was " + show(value));
      return null;
    }
    return toDouble(value) + 0.0;
  }

  /**
   * A number node's value as the nearest {@code double}, infinite beyond a double's range ({@code
   * 1e400}); Jackson's own {@code doubleValue()} throws there instead.
   */
  static double toDouble(JsonNode number) {
    return number.numberValue().doubleValue();
  }

  /** A whole-number field that fits an int; null when absent or invalid. */
  public @Nullable Integer wholeNumber(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt()) {
      error(field, "must be a whole number, was " + show(value));
      return null;
    }
    return value.intValue();
  }

  /** A duration field, an ISO-8601 string such as "PT10S"; null when absent or invalid. */
  public @Nullable Duration duration(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (value.isString()) {
      try {
        return Duration.parse(value.stringValue());
      } catch (DateTimeException | ArithmeticException unreadable) {
        // reported below
      }
    }
    error(field, "must be an ISO-8601 duration such as \"PT10S\" or \"PT0.5S\", was "
        + show(value));
    return null;
  }

  /** A list of strings; null when absent or invalid. */
  public @Nullable List<String> strings(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    List<String> items = new ArrayList<>();
    if (value.isArray()) {
      for (JsonNode item : value) {
        if (!item.isString()) {
          break;
        }
        items.add(item.stringValue());
      }
      if (items.size() == value.size()) {
        return items;
      }
    }
    error(field, "must be a list of strings, was " + show(value));
    return null;
  }

  /** A nested object, to read with its own {@code Fields}; null when absent or not an object. */
  public @Nullable Fields object(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (!value.isObject()) {
      error(field, "must be an object, was " + show(value));
      return null;
    }
    return new Fields((ObjectNode) value, path(field), problems);
  }

  /**
   * A list of objects, each to read with its own {@code Fields} (path {@code field[i]}); null when
   * absent or not a list (items that are not objects are reported and skipped).
   */
  public @Nullable List<Fields> objects(String field) {
    JsonNode value = value(field);
    if (value == null) {
      return null;
    }
    if (!value.isArray()) {
      error(field, "must be a list of objects, was " + show(value));
      return null;
    }
    List<Fields> items = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      JsonNode item = value.get(i);
      String itemPath = path(field) + "[" + i + "]";
      if (item.isObject()) {
        items.add(new Fields((ObjectNode) item, itemPath, problems));
      } else {
        problems.add(itemPath, "must be an object, was " + show(item));
      }
    }
    return items;
  }

  /** The raw JSON value of a field (null when absent), for values of several possible types. */
  public @Nullable JsonNode raw(String field) {
    return value(field);
  }

  /** Records that a required field is missing; returns whether it is present. */
  public boolean require(String field, @Nullable Object read) {
    if (read == null && !node.hasNonNull(field)) {
      error(field, "is required");
      return false;
    }
    known.add(field);
    return read != null;
  }

  /**
   * Runs a rule record's validation of one field (a record built with this field's value and
   * valid placeholders elsewhere); its error is recorded at the field.
   *
   * @return whether the value is valid
   */
  public boolean check(String field, Runnable validation) {
    try {
      validation.run();
      return true;
    } catch (IllegalArgumentException invalid) {
      error(field, must(invalid, node.get(field)));
      return false;
    }
  }

  /**
   * Builds a rule record from values that each passed {@link #check}, so that only rules across
   * fields can fail; an error is recorded at the JSON field its record field maps to.
   *
   * @param construct builds the record
   * @param paths record field name to JSON field (relative to this object, dots for nesting)
   * @return the record, or null if it refused the values
   */
  public <R> @Nullable R build(Supplier<R> construct, Map<String, String> paths) {
    try {
      return construct.get();
    } catch (IllegalArgumentException invalid) {
      String message = String.valueOf(invalid.getMessage());
      int space = message.indexOf(' ');
      String mapped = space < 0 ? null : paths.get(message.substring(0, space));
      if (mapped == null) {
        error(message);
      } else {
        problems.add(path(mapped), must(invalid, at(mapped)));
      }
      return null;
    }
  }

  private @Nullable JsonNode at(String relative) {
    JsonNode current = node;
    for (String part : relative.split("\\.")) {
      current = current == null ? null : current.get(part);
    }
    return current;
  }

  /** Reports every field of the object that was not read. */
  public void finish() {
    for (String name : node.propertyNames()) {
      if (!known.contains(name)) {
        problems.add(path(name), "is not a field here; the fields are " + known);
      }
    }
  }

  /**
   * Turns a record's message "field must ..., was value" into "must ..., was json value", with
   * the value as the document wrote it.
   */
  static String must(IllegalArgumentException invalid, @Nullable JsonNode given) {
    String message = String.valueOf(invalid.getMessage());
    int space = message.indexOf(' ');
    String rest = space < 0 ? message : message.substring(space + 1);
    int was = rest.lastIndexOf(", was ");
    if (was >= 0 && given != null) {
      rest = rest.substring(0, was) + ", was " + show(given);
    }
    return rest;
  }

  /** A JSON value as the document wrote it, shortened if long. */
  public static String show(JsonNode value) {
    String text = value.isNumber() ? value.asString() : value.toString();
    return text.length() <= MAX_VALUE_CHARS ? text : text.substring(0, MAX_VALUE_CHARS) + "...";
  }
}
