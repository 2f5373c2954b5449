package dev.guard.spring.boot;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.rules.RuleFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

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
 * Errors carry the property paths the application wrote, with the index it wrote ({@code
 * guard.rules.flow[5].qps: ...}, also when there are no items 0 to 4) and the variable a value came
 * from ({@code guard.rules.flow[5].qps (GUARD_RULES_FLOW_5_QPS): ...}); a path has at most {@link
 * #MAX_SEGMENTS} segments below {@code guard.rules}. {@link PropertyDocument} builds the document.
 */
final class EnvironmentRules {

  static final String PREFIX = "guard.rules";

  /**
   * The most segments a property path under {@code guard.rules} has ({@code flow}, {@code 0},
   * {@code qps} are three): a rule document nests no deeper ({@link RuleFormat#MAX_NESTING}).
   */
  static final int MAX_SEGMENTS = RuleFormat.MAX_NESTING;

  /** How environment variable names for {@code guard.rules} begin, in any case. */
  private static final String VARIABLE_PREFIX = "GUARD_RULES_";

  /** The longest name an error repeats whole; longer ones are shortened. */
  private static final int MAX_NAME_CHARS = 100;

  private static final Pattern SEGMENT = Pattern.compile("([^.\\[\\]]+)|\\[(\\d{1,6})]");

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
    Optional<PropertyDocument> document = document(environment);
    if (document.isEmpty()) {
      return Optional.empty();
    }
    PropertyDocument properties = document.get();
    String json;
    try {
      json = Json.MAPPER.writeValueAsString(properties.json());
    } catch (JacksonException e) {
      throw new IllegalStateException("guard.rules could not be written as JSON", e);
    }
    try {
      return Optional.of(RuleFormat.parse(json));
    } catch (InvalidRulesException invalid) {
      throw new InvalidRulesException(
          invalid.errors().stream().map(properties::relabel).toList());
    }
  }

  /**
   * The document the environment's {@code guard.rules} describe, or empty if none.
   *
   * @throws InvalidRulesException naming the properties and variables guard cannot read
   */
  static Optional<PropertyDocument> document(ConfigurableEnvironment environment) {
    Map<String, Object> root = new LinkedHashMap<>();
    Set<String> fromVariables = new HashSet<>();
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
          put(own, path, new PropertyDocument.Leaf(value, variables ? name : null), errors);
        }
      }
      // a top-level field comes whole from the source of highest precedence that has it
      own.forEach((field, value) -> {
        if (root.putIfAbsent(field, value) == null && variables) {
          fromVariables.add(field);
        }
      });
    }
    if (root.isEmpty() && errors.isEmpty()) {
      return Optional.empty();
    }
    PropertyDocument document = new PropertyDocument(root, fromVariables);
    errors.addAll(document.errors());
    if (!errors.isEmpty()) {
      throw new InvalidRulesException(errors);
    }
    if (!document.json().has("version")) {
      document.json().put("version", RuleFormat.VERSION);
    }
    return Optional.of(document);
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> root, String path, PropertyDocument.Leaf leaf,
      List<InvalidRulesException.Error> errors) {
    String named = leaf.variable() == null ? shorten(path)
        : shorten(path) + " (" + shorten(leaf.variable()) + ")";
    String rest = path.substring(PREFIX.length());
    List<Object> keys = new ArrayList<>();
    Matcher m = SEGMENT.matcher(rest);
    int at = 0;
    while (at < rest.length()) {
      if (rest.charAt(at) == '.') {
        at++;
        continue;
      }
      if (!m.find(at) || m.start() != at) {
        errors.add(new InvalidRulesException.Error(named, "is not a property path guard reads"));
        return;
      }
      if (keys.size() == MAX_SEGMENTS) {
        String variable = leaf.variable();
        errors.add(new InvalidRulesException.Error(shorten(variable != null ? variable : path),
            tooDeep(path.split("[.\\[]", -1).length - 2)));
        return;
      }
      keys.add(m.group(1) != null ? camel(m.group(1)) : Integer.valueOf(m.group(2)));
      at = m.end();
    }
    if (keys.isEmpty() || !(keys.get(0) instanceof String)) {
      errors.add(new InvalidRulesException.Error(named, "must name a field of the rule document"));
      return;
    }
    Object node = root;
    for (int i = 0; i < keys.size(); i++) {
      Object key = keys.get(i);
      boolean last = i == keys.size() - 1;
      Object next = last ? leaf : keys.get(i + 1) instanceof Integer ? new TreeMap<Integer, Object>()
          : new LinkedHashMap<String, Object>();
      Object child;
      if (key instanceof String field && node instanceof LinkedHashMap<?, ?> map) {
        child = ((Map<String, Object>) map).putIfAbsent(field, next);
      } else if (key instanceof Integer index && node instanceof TreeMap<?, ?> list) {
        child = ((Map<Integer, Object>) list).putIfAbsent(index, next);
      } else {
        errors.add(new InvalidRulesException.Error(named, "mixes a list and an object"));
        return;
      }
      node = child == null ? next : child;
    }
  }

  private static String tooDeep(int segments) {
    return "is not a property path guard reads: it has " + segments + " segments below "
        + PREFIX + ", at most " + MAX_SEGMENTS + " (a rule document nests no deeper)";
  }

  /** A name as an error repeats it: whole, or its start and its length when it is long. */
  private static String shorten(String name) {
    return name.length() <= MAX_NAME_CHARS ? name
        : name.substring(0, MAX_NAME_CHARS) + "... (" + name.length() + " characters)";
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
        errors.add(new InvalidRulesException.Error(shorten(variable),
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
            properties -> properties.propertyNames().forEach(
                name -> fields.put(name.toLowerCase(Locale.ROOT), name)));
      } catch (JacksonException e) {
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
