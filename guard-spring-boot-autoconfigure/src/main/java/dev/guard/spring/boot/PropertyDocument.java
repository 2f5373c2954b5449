package dev.guard.spring.boot;

import dev.guard.api.rule.InvalidRulesException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The properties under {@code guard.rules}, as a tree keyed the way the application wrote them,
 * turned into the JSON rule document. A list in the document holds a property list's items in
 * the order of their indices, without gaps ({@code flow[0]} and {@code flow[2]} are the
 * document's first and second rule); so the document remembers, for each of its nodes, the
 * property path the application wrote ({@code guard.rules.flow[2]}) and the environment variable
 * it came from, and {@link #relabel} gives an error of the document back that name. Values are
 * converted here: a number no {@code double} holds ({@code .nan}, {@code .inf}, {@code 1e400},
 * {@code 1e99999999999}) is an error at its property, since the document cannot carry it.
 *
 * <p>The tree's objects are {@code LinkedHashMap}s, its lists {@code TreeMap}s by index, its
 * leaves {@link Leaf}s; its depth is bounded by the reader ({@link EnvironmentRules#MAX_SEGMENTS}).
 */
final class PropertyDocument {

  /** A value, with the environment variable it came from (null for any other property). */
  record Leaf(Object value, @Nullable String variable) {}

  /** Where the application wrote a node: its property path, and the variables it came from. */
  private record Written(String path, @Nullable String variable) {}

  /** The fields whose values stay strings even when they read as numbers. */
  private static final Set<String> NAME_FIELDS =
      Set.of("resource", "origin", "relatedTo", "fromEntrance", "flowId", "valueType",
          "allowOrigins", "denyOrigins", "$schema");

  /** The fields whose values are lists of names, which a comma-separated string may spell. */
  private static final Set<String> NAME_LIST_FIELDS = Set.of("allowOrigins", "denyOrigins");

  /** The document's root, as {@code RuleFormat} names it in its errors. */
  private static final String ROOT = "rules";

  private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?");
  /** Where in the document a JSON error was found, as {@code RuleFormat} appends it. */
  private static final Pattern POSITION = Pattern.compile(" \\(line \\d+, column \\d+\\)$");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ObjectNode json;
  private final Map<String, Written> written = new HashMap<>();
  private final List<InvalidRulesException.Error> errors = new ArrayList<>();

  /**
   * Builds the document of a tree.
   *
   * @param root the tree's root object
   * @param fromVariables the top-level fields that came from environment variables
   */
  PropertyDocument(Map<String, Object> root, Set<String> fromVariables) {
    ObjectNode object = NODES.objectNode();
    written.put(ROOT, new Written(EnvironmentRules.PREFIX, null));
    root.forEach((key, value) -> object.set(key, write(value, key, ROOT + "." + key,
        EnvironmentRules.PREFIX + "." + key, fromVariables.contains(key))));
    this.json = object;
  }

  /** The document; check {@link #errors()} first. */
  ObjectNode json() {
    return json;
  }

  /** The values that could not become part of the document, each at its property. */
  List<InvalidRulesException.Error> errors() {
    return errors;
  }

  /**
   * Returns an error of the document at the property the application wrote: {@code
   * rules.flow[1].qps} as {@code guard.rules.flow[2].qps}, with the variable it came from, {@code
   * guard.rules.flow[2].qps (GUARD_RULES_FLOW_2_QPS)}; without the line and column of the
   * document, which the application never saw.
   */
  InvalidRulesException.Error relabel(InvalidRulesException.Error error) {
    String path = error.path();
    String message = POSITION.matcher(error.message()).replaceFirst("");
    for (int end = path.length(); end > 0; end = Math.max(path.lastIndexOf('.', end - 1),
        path.lastIndexOf('[', end - 1))) {
      Written node = written.get(path.substring(0, end));
      if (node != null) {
        String named = node.path() + path.substring(end);
        return new InvalidRulesException.Error(
            node.variable() == null ? named : named + " (" + node.variable() + ")", message);
      }
    }
    return new InvalidRulesException.Error(EnvironmentRules.PREFIX + "." + path, message);
  }

  private JsonNode write(Object node, String field, String documentPath, String propertyPath,
      boolean variables) {
    if (node instanceof Leaf leaf) {
      written.put(documentPath, new Written(propertyPath, leaf.variable()));
      return leaf(leaf, field, propertyPath);
    }
    written.put(documentPath, new Written(propertyPath, variables ? variables(propertyPath) : null));
    if (node instanceof TreeMap<?, ?> list) {
      ArrayNode array = NODES.arrayNode();
      list.forEach((index, item) -> array.add(write(item, field,
          documentPath + "[" + array.size() + "]", propertyPath + "[" + index + "]", variables)));
      return array;
    }
    ObjectNode object = NODES.objectNode();
    ((Map<?, ?>) node).forEach((key, value) -> object.set((String) key, write(value, (String) key,
        documentPath + "." + key, propertyPath + "." + key, variables)));
    return object;
  }

  /** The variables under a node, as Spring spells its path: {@code GUARD_RULES_FLOW_2_*}. */
  private static String variables(String propertyPath) {
    return propertyPath.replace('.', '_').replace('[', '_').replace("]", "")
        .toUpperCase(Locale.ROOT) + "_*";
  }

  private JsonNode leaf(Leaf leaf, String field, String propertyPath) {
    Object value = leaf.value();
    if (NAME_LIST_FIELDS.contains(field) && value instanceof String names) {
      ArrayNode array = NODES.arrayNode();
      for (String name : names.split(",", -1)) {
        array.add(name.trim());
      }
      return array;
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short
        || value instanceof Byte) {
      return NODES.numberNode(((Number) value).longValue());
    }
    if (value instanceof Number number) { // Double, Float, BigInteger, BigDecimal
      return number(number.toString(), leaf, propertyPath);
    }
    String text = value.toString();
    if (!NAME_FIELDS.contains(field)) {
      if (text.equals("true") || text.equals("false")) {
        return NODES.booleanNode(Boolean.parseBoolean(text));
      }
      if (NUMBER.matcher(text).matches()) {
        return number(text, leaf, propertyPath);
      }
    }
    return NODES.textNode(text);
  }

  /**
   * A number as the document carries it: a long when it is a whole one that fits, else a decimal;
   * an error when a double cannot hold it (not a number, infinite, or beyond a double's range).
   */
  private JsonNode number(String text, Leaf leaf, String propertyPath) {
    double value = Double.parseDouble(text);
    if (!Double.isFinite(value)) {
      String at = leaf.variable() == null ? propertyPath
          : propertyPath + " (" + leaf.variable() + ")";
      errors.add(new InvalidRulesException.Error(at, "must be a finite number, was " + text));
      return NODES.nullNode();
    }
    if (text.matches("-?\\d{1,18}")) {
      return NODES.numberNode(Long.parseLong(text));
    }
    try {
      return NODES.numberNode(new BigDecimal(text));
    } catch (NumberFormatException outOfRange) { // 1e-99999999999, whose exponent no int holds
      return NODES.numberNode(value);
    }
  }
}
