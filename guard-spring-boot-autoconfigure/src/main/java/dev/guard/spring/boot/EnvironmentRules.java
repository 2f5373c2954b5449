package dev.guard.spring.boot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.rules.RuleFormat;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Reads {@code guard.rules} from the environment as a JSON rule document and hands it to {@link
 * RuleFormat}: one format, one validation. Each top-level field ({@code flow}, {@code
 * circuitBreakers}, ...) comes whole from the property source of highest precedence that has it,
 * as Spring binds lists. Keys may be written as the document spells them ({@code warmUp}) or in
 * kebab case ({@code warm-up}). Values from YAML keep their types; strings (from properties files,
 * command lines) that read as numbers or booleans are taken as such, except in the fields whose
 * values are names; a comma-separated string in a field that holds a list of names ({@code
 * allowOrigins: ops,billing}) is that list. Environment variables spell the same paths as Spring
 * spells them: {@code GUARD_RULES_FLOW_0_QPS} is {@code guard.rules.flow[0].qps}, and a key written
 * without its capitals ({@code WARMUP}) is the document's field of that name ({@code warmUp}).
 * Errors carry property paths: {@code guard.rules.flow[0].qps: ...}.
 */
final class EnvironmentRules {

  static final String PREFIX = "guard.rules";

  /** The fields whose values stay strings even when they read as numbers. */
  private static final Set<String> NAME_FIELDS =
      Set.of("resource", "origin", "relatedTo", "fromEntrance", "flowId", "valueType",
          "allowOrigins", "denyOrigins", "$schema");

  /** The fields whose values are lists of names, which a comma-separated string may spell. */
  private static final Set<String> NAME_LIST_FIELDS = Set.of("allowOrigins", "denyOrigins");

  /** How environment variable names for {@code guard.rules} begin, in any case. */
  private static final String VARIABLE_PREFIX = "GUARD_RULES_";

  private static final Pattern SEGMENT = Pattern.compile("([^.\\[\\]]+)|\\[(\\d{1,6})]");
  private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?");

  private EnvironmentRules() {}

  /** Jackson, loaded only when there are rules to write (an application without any pays nothing). */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  /**
   * Returns the rule set under {@code guard.rules}, or empty when the environment has none.
   *
   * @throws InvalidRulesException with property paths when the rules are not valid
   */
  static Optional<RuleSet> read(ConfigurableEnvironment environment) {
    Optional<String> document = document(environment);
    if (document.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(RuleFormat.parse(document.get()));
    } catch (InvalidRulesException invalid) {
      throw withPropertyPaths(invalid);
    }
  }

  /** The document the environment's {@code guard.rules} describe, or empty if none. */
  static Optional<String> document(ConfigurableEnvironment environment) {
    Map<String, Object> root = new LinkedHashMap<>();
    List<InvalidRulesException.Error> errors = new ArrayList<>();
    for (PropertySource<?> source : environment.getPropertySources()) {
      if (!(source instanceof EnumerablePropertySource<?> enumerable)
          || "configurationProperties".equals(source.getName())) {
        continue;
      }
      Map<String, Object> own = new LinkedHashMap<>();
      boolean variables = source instanceof SystemEnvironmentPropertySource;
      for (String name : enumerable.getPropertyNames()) {
        String path = variables ? variablePath(name, errors) : name;
        if (path == null || !path.startsWith(PREFIX + ".") && !path.startsWith(PREFIX + "[")) {
          continue;
        }
        Object value = enumerable.getProperty(name);
        if (value != null) {
          put(own, path, value, errors);
        }
      }
      // a top-level field comes whole from the source of highest precedence that has it
      own.forEach(root::putIfAbsent);
    }
    if (!errors.isEmpty()) {
      throw new InvalidRulesException(errors);
    }
    if (root.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode json = (ObjectNode) toJson(root, "");
    if (!json.has("version")) {
      json.put("version", RuleFormat.VERSION);
    }
    try {
      return Optional.of(Json.MAPPER.writeValueAsString(json));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("guard.rules could not be written as JSON", e);
    }
  }

  /** The same errors, each path under {@code guard.rules} instead of the document's root. */
  static InvalidRulesException withPropertyPaths(InvalidRulesException invalid) {
    List<InvalidRulesException.Error> errors = new ArrayList<>();
    for (InvalidRulesException.Error error : invalid.errors()) {
      String path = error.path();
      String rest = path.startsWith("rules") ? path.substring("rules".length()) : "." + path;
      errors.add(new InvalidRulesException.Error(PREFIX + rest, error.message()));
    }
    return new InvalidRulesException(errors);
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> root, String name, Object value,
      List<InvalidRulesException.Error> errors) {
    String rest = name.substring(PREFIX.length());
    List<Object> keys = new ArrayList<>();
    Matcher m = SEGMENT.matcher(rest);
    int at = 0;
    while (at < rest.length()) {
      if (rest.charAt(at) == '.') {
        at++;
        continue;
      }
      if (!m.find(at) || m.start() != at) {
        errors.add(new InvalidRulesException.Error(name, "is not a property path guard reads"));
        return;
      }
      keys.add(m.group(1) != null ? camel(m.group(1)) : Integer.valueOf(m.group(2)));
      at = m.end();
    }
    if (keys.isEmpty() || !(keys.get(0) instanceof String)) {
      errors.add(new InvalidRulesException.Error(name, "must name a field of the rule document"));
      return;
    }
    Object node = root;
    for (int i = 0; i < keys.size(); i++) {
      Object key = keys.get(i);
      boolean last = i == keys.size() - 1;
      Object next = last ? value : keys.get(i + 1) instanceof Integer ? new TreeMap<Integer, Object>()
          : new LinkedHashMap<String, Object>();
      Object child;
      if (key instanceof String field && node instanceof LinkedHashMap<?, ?> map) {
        child = ((Map<String, Object>) map).putIfAbsent(field, next);
      } else if (key instanceof Integer index && node instanceof TreeMap<?, ?> list) {
        child = ((Map<Integer, Object>) list).putIfAbsent(index, next);
      } else {
        errors.add(new InvalidRulesException.Error(name, "mixes a list and an object"));
        return;
      }
      node = child == null ? next : child;
    }
  }

  private static JsonNode toJson(Object node, String field) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (node instanceof TreeMap<?, ?> list) {
      ArrayNode array = nodes.arrayNode();
      list.values().forEach(item -> array.add(toJson(item, field)));
      return array;
    }
    if (node instanceof Map<?, ?> map) {
      ObjectNode object = nodes.objectNode();
      map.forEach((key, value) -> object.set((String) key, toJson(value, (String) key)));
      return object;
    }
    if (NAME_LIST_FIELDS.contains(field) && node instanceof String names) {
      ArrayNode array = nodes.arrayNode();
      for (String name : names.split(",", -1)) {
        array.add(name.trim());
      }
      return array;
    }
    return scalar(node, field);
  }

  private static JsonNode scalar(Object value, String field) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value instanceof Boolean b) {
      return nodes.booleanNode(b);
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return nodes.numberNode(((Number) value).longValue());
    }
    if (value instanceof Number number) {
      return nodes.numberNode(new BigDecimal(number.toString()));
    }
    String text = value.toString();
    if (!NAME_FIELDS.contains(field)) {
      if (text.equals("true") || text.equals("false")) {
        return nodes.booleanNode(Boolean.parseBoolean(text));
      }
      if (NUMBER.matcher(text).matches()) {
        return text.matches("-?\\d{1,18}")
            ? nodes.numberNode(Long.parseLong(text))
            : nodes.numberNode(new BigDecimal(text));
      }
    }
    return nodes.textNode(text);
  }

  /**
   * The property path an environment variable spells, the way Spring reads them: underscores for
   * dots, a segment of digits for a list index, capitals ignored, each field name given back its
   * camel case by the document's schema. Null when the variable is not one of {@code
   * guard.rules}; a variable under {@code GUARD_RULES_} with an empty segment is an error.
   */
  private static @Nullable String variablePath(String variable,
      List<InvalidRulesException.Error> errors) {
    if (!variable.regionMatches(true, 0, VARIABLE_PREFIX, 0, VARIABLE_PREFIX.length())) {
      return null;
    }
    StringBuilder path = new StringBuilder(PREFIX);
    for (String segment : variable.substring(VARIABLE_PREFIX.length()).split("_", -1)) {
      if (segment.isEmpty()) {
        errors.add(new InvalidRulesException.Error(variable,
            "is not a property path guard reads: a segment between underscores is empty"));
        return null;
      }
      if (segment.chars().allMatch(c -> c >= '0' && c <= '9')) {
        path.append('[').append(segment).append(']');
      } else {
        String lower = segment.toLowerCase(Locale.ROOT);
        path.append('.').append(FieldNames.BY_LOWER_CASE.getOrDefault(lower, lower));
      }
    }
    return path.toString();
  }

  /** The document's field names by their lower case, read from its schema when first needed. */
  private static final class FieldNames {
    static final Map<String, String> BY_LOWER_CASE = read();

    private static Map<String, String> read() {
      Map<String, String> fields = new HashMap<>();
      try {
        Json.MAPPER.readTree(RuleFormat.schema()).findValues("properties").forEach(
            properties -> properties.fieldNames().forEachRemaining(
                name -> fields.put(name.toLowerCase(Locale.ROOT), name)));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException("guard-rules' schema could not be read", e);
      }
      return Map.copyOf(fields);
    }
  }

  /** {@code warm-up} to {@code warmUp}; names without dashes stay as they are. */
  private static String camel(String key) {
    if (key.indexOf('-') < 0) {
      return key;
    }
    StringBuilder out = new StringBuilder(key.length());
    boolean upper = false;
    for (char c : key.toCharArray()) {
      if (c == '-') {
        upper = true;
      } else {
        out.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return out.toString();
  }
}
