package dev.guard.rules.internal;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Adaptive concurrency limits, named as the DSL's {@code adaptiveConcurrency()} stage names its
 * settings:
 *
 * <pre>{@code
 * {"resource": "inventory"}
 * {"resource": "search", "algorithm": "aimd", "initialLimit": 10, "minLimit": 2,
 *  "maxLimit": 200, "window": "PT0.05S", "slowerThan": "PT0.25S",
 *  "shares": {"live": 0.9, "batch": 0.1}}
 * }</pre>
 *
 * <p>Every field but {@code resource} is optional; defaults are the rule's and are left out when
 * writing. {@code algorithm} is {@code "gradient"} or {@code "aimd"}. An engine takes at most one
 * such rule per resource.
 */
final class AdaptiveConcurrencyFormat implements KindFormat<AdaptiveConcurrencyRule> {

  private static final String PLACEHOLDER = "resource";
  private static final AdaptiveConcurrencyRule BASE = AdaptiveConcurrencyRule.of(PLACEHOLDER);
  private static final Map<String, String> PATHS = Map.of(
      "resource", "resource", "initialLimit", "initialLimit", "minLimit", "minLimit",
      "maxLimit", "maxLimit", "window", "window", "slowerThan", "slowerThan");

  @Override
  public String key() {
    return "adaptiveConcurrency";
  }

  @Override
  public int maxPerResource() {
    return 1;
  }

  @Override
  public Class<AdaptiveConcurrencyRule> type() {
    return AdaptiveConcurrencyRule.class;
  }

  @Override
  public @Nullable AdaptiveConcurrencyRule read(Fields fields) {
    String resource = fields.string("resource");
    fields.require("resource", resource);
    boolean resourceValid = resource != null
        && fields.check("resource", () -> AdaptiveConcurrencyRule.of(resource));
    AdaptiveConcurrencyRule.Algorithm algorithm = algorithm(fields);
    Integer initial = fields.wholeNumber("initialLimit");
    Integer min = fields.wholeNumber("minLimit");
    Integer max = fields.wholeNumber("maxLimit");
    Duration window = fields.duration("window");
    boolean windowValid = window == null || fields.check("window", () -> BASE.withWindow(window));
    Duration slowerThan = fields.duration("slowerThan");
    boolean slowValid = slowerThan == null
        || fields.check("slowerThan", () -> BASE.withSlowerThan(slowerThan));
    Map<String, Double> shares = shares(fields);
    fields.finish();
    if (!resourceValid || !windowValid || !slowValid || !fields.clean() || resource == null) {
      return null;
    }
    return fields.build(() -> new AdaptiveConcurrencyRule(resource, algorithm,
        initial == null ? AdaptiveConcurrencyRule.DEFAULT_INITIAL_LIMIT : initial,
        min == null ? AdaptiveConcurrencyRule.DEFAULT_MIN_LIMIT : min,
        max == null ? AdaptiveConcurrencyRule.DEFAULT_MAX_LIMIT : max,
        window == null ? AdaptiveConcurrencyRule.DEFAULT_WINDOW : window,
        slowerThan == null ? Duration.ZERO : slowerThan, shares), PATHS);
  }

  /** The shares object: origin names to fractions; invalid entries are reported and left out. */
  private static Map<String, Double> shares(Fields fields) {
    Fields object = fields.object("shares");
    JsonNode raw = fields.raw("shares");
    Map<String, Double> shares = new LinkedHashMap<>();
    if (object == null || raw == null) {
      return shares;
    }
    boolean valid = true;
    for (String origin : raw.propertyNames()) {
      if (raw.get(origin).isNull()) {
        continue; // null is the same as absent
      }
      Double fraction = object.number(origin);
      if (fraction != null && object.check(origin, () -> BASE.withShare(origin, fraction))) {
        shares.put(origin, fraction);
      } else {
        valid = false;
      }
    }
    if (valid && !fields.check("shares", () -> withShares(shares))) {
      return new LinkedHashMap<>();
    }
    return shares;
  }

  private static AdaptiveConcurrencyRule withShares(Map<String, Double> shares) {
    AdaptiveConcurrencyRule rule = BASE;
    for (Map.Entry<String, Double> share : shares.entrySet()) {
      rule = rule.withShare(share.getKey(), share.getValue());
    }
    return rule;
  }

  private static AdaptiveConcurrencyRule.Algorithm algorithm(Fields fields) {
    String named = fields.string("algorithm");
    if (named == null) {
      return AdaptiveConcurrencyRule.Algorithm.GRADIENT;
    }
    for (AdaptiveConcurrencyRule.Algorithm algorithm : AdaptiveConcurrencyRule.Algorithm.values()) {
      if (name(algorithm).equals(named)) {
        return algorithm;
      }
    }
    fields.error("algorithm", "must be \"gradient\" or \"aimd\", was \"" + named + "\"");
    return AdaptiveConcurrencyRule.Algorithm.GRADIENT;
  }

  private static String name(AdaptiveConcurrencyRule.Algorithm algorithm) {
    return algorithm.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public void write(AdaptiveConcurrencyRule rule, ObjectNode out) {
    out.put("resource", rule.resource());
    if (rule.algorithm() != AdaptiveConcurrencyRule.Algorithm.GRADIENT) {
      out.put("algorithm", name(rule.algorithm()));
    }
    if (rule.initialLimit() != AdaptiveConcurrencyRule.DEFAULT_INITIAL_LIMIT) {
      out.put("initialLimit", rule.initialLimit());
    }
    if (rule.minLimit() != AdaptiveConcurrencyRule.DEFAULT_MIN_LIMIT) {
      out.put("minLimit", rule.minLimit());
    }
    if (rule.maxLimit() != AdaptiveConcurrencyRule.DEFAULT_MAX_LIMIT) {
      out.put("maxLimit", rule.maxLimit());
    }
    if (!rule.window().equals(AdaptiveConcurrencyRule.DEFAULT_WINDOW)) {
      Json.duration(out, "window", rule.window());
    }
    if (!rule.slowerThan().isZero()) {
      Json.duration(out, "slowerThan", rule.slowerThan());
    }
    if (!rule.shares().isEmpty()) {
      ObjectNode shares = out.putObject("shares");
      rule.shares().forEach((origin, fraction) -> Json.number(shares, origin, fraction));
    }
  }
}
