package dev.guard.rules.internal;

import dev.guard.api.rule.CircuitBreakerRule;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Circuit breakers, named as the DSL's breaker steps ({@code errorRatio(..).openFor(..)}) name them:
 *
 * <pre>{@code
 * {"resource": "inventory", "slowCallRatio": 0.5, "slowerThan": "PT0.3S", "minCalls": 10,
 *  "window": "PT10S", "buckets": 10, "openFor": "PT5S", "probes": 2, "probeTimeout": "PT1S"}
 * {"resource": "payments", "errorRatio": 0.3, "openFor": "PT10S"}
 * {"resource": "mailer", "errorCount": 20}
 * }</pre>
 *
 * <p>Exactly one of {@code slowCallRatio}, {@code errorRatio} and {@code errorCount}; {@code
 * slowerThan} with {@code slowCallRatio} only, and required there. Defaults are the rule's and
 * are left out when writing.
 */
final class CircuitBreakerFormat implements KindFormat<CircuitBreakerRule> {

  private static final String PLACEHOLDER = "resource";
  private static final CircuitBreakerRule BASE = CircuitBreakerRule.errorRatio(PLACEHOLDER, 0);

  @Override
  public String key() {
    return "circuitBreakers";
  }

  /** The field that names a strategy and holds its threshold. */
  private static String keyOf(CircuitBreakerRule.Strategy strategy) {
    return switch (strategy) {
      case SLOW_CALL_RATIO -> "slowCallRatio";
      case ERROR_RATIO -> "errorRatio";
      case ERROR_COUNT -> "errorCount";
    };
  }

  @Override
  public Class<CircuitBreakerRule> type() {
    return CircuitBreakerRule.class;
  }

  @Override
  public @Nullable CircuitBreakerRule read(Fields fields) {
    String resource = fields.string("resource");
    fields.require("resource", resource);
    String validResource = resource != null
        && fields.check("resource", () -> CircuitBreakerRule.errorRatio(resource, 0)) ? resource : null;
    CircuitBreakerRule.Strategy strategy = strategy(fields);
    double threshold = threshold(fields, strategy);
    Duration slowerThan = slowerThan(fields, strategy);
    int minCalls = valid(fields, "minCalls", fields.wholeNumber("minCalls"),
        CircuitBreakerRule.DEFAULT_MIN_CALLS, value -> BASE.withMinCalls(value));
    Duration window = valid(fields, "window", fields.duration("window"),
        CircuitBreakerRule.DEFAULT_WINDOW, value -> BASE.withStatWindow(value, 1));
    int buckets = valid(fields, "buckets", fields.wholeNumber("buckets"),
        CircuitBreakerRule.DEFAULT_BUCKETS,
        value -> BASE.withStatWindow(Duration.ofMillis(Math.max(1, value)), value));
    Duration openFor = valid(fields, "openFor", fields.duration("openFor"),
        CircuitBreakerRule.DEFAULT_OPEN_FOR, value -> BASE.withOpenFor(value));
    int probes = valid(fields, "probes", fields.wholeNumber("probes"),
        CircuitBreakerRule.DEFAULT_PROBES, value -> BASE.withProbes(value, null));
    Duration givenTimeout = fields.duration("probeTimeout");
    Duration probeTimeout = givenTimeout != null && fields.check("probeTimeout",
        () -> BASE.withProbes(1, givenTimeout)) ? givenTimeout : null;
    fields.finish();

    CircuitBreakerRule rule = fields.build(() -> new CircuitBreakerRule(
        validResource == null ? PLACEHOLDER : validResource, strategy, threshold, slowerThan,
        minCalls, window, buckets, openFor, probes, probeTimeout), Map.of(
            "threshold", keyOf(strategy),
            "slowerThan", "slowerThan",
            "window", "window",
            "buckets", "buckets",
            "probes", "probes"));
    return fields.clean() ? rule : null;
  }

  /** The strategy named by the one strategy field present (error ratio when none is valid). */
  private static CircuitBreakerRule.Strategy strategy(Fields fields) {
    CircuitBreakerRule.Strategy found = null;
    for (CircuitBreakerRule.Strategy strategy : CircuitBreakerRule.Strategy.values()) {
      String key = keyOf(strategy);
      if (!fields.has(key)) {
        continue;
      }
      if (found != null) {
        fields.error(key, "must not be given with " + keyOf(found)
            + ": a circuit breaker has one strategy");
      } else {
        found = strategy;
      }
    }
    if (found == null) {
      fields.error("needs \"slowCallRatio\", \"errorRatio\" or \"errorCount\"");
      return CircuitBreakerRule.Strategy.ERROR_RATIO;
    }
    return found;
  }

  private static double threshold(Fields fields, CircuitBreakerRule.Strategy strategy) {
    String key = keyOf(strategy);
    Double value = fields.number(key);
    if (value == null) {
      return 0;
    }
    double given = value;
    boolean valid = fields.check(key, () -> new CircuitBreakerRule(PLACEHOLDER, strategy, given,
        strategy == CircuitBreakerRule.Strategy.SLOW_CALL_RATIO ? Duration.ZERO : null,
        CircuitBreakerRule.DEFAULT_MIN_CALLS, CircuitBreakerRule.DEFAULT_WINDOW,
        CircuitBreakerRule.DEFAULT_BUCKETS, CircuitBreakerRule.DEFAULT_OPEN_FOR,
        CircuitBreakerRule.DEFAULT_PROBES, null));
    return valid ? given : 0;
  }

  private static @Nullable Duration slowerThan(Fields fields, CircuitBreakerRule.Strategy strategy) {
    Duration given = fields.duration("slowerThan");
    if (strategy != CircuitBreakerRule.Strategy.SLOW_CALL_RATIO) {
      if (given != null) {
        fields.error("slowerThan", "applies to slowCallRatio only");
      }
      return null;
    }
    fields.require("slowerThan", given);
    if (given == null) {
      return Duration.ZERO;
    }
    boolean valid = fields.check("slowerThan",
        () -> CircuitBreakerRule.slowCallRatio(PLACEHOLDER, given, 0));
    return valid ? given : Duration.ZERO;
  }

  private interface Check<T> {
    void run(T value);
  }

  private static <T> T valid(Fields fields, String field, @Nullable T given, T fallback,
      Check<T> check) {
    if (given == null) {
      return fallback;
    }
    return fields.check(field, () -> check.run(given)) ? given : fallback;
  }

  @Override
  public void write(CircuitBreakerRule rule, ObjectNode out) {
    out.put("resource", rule.resource());
    Json.number(out, keyOf(rule.strategy()), rule.threshold());
    Duration slowerThan = rule.slowerThan();
    if (slowerThan != null) {
      Json.duration(out, "slowerThan", slowerThan);
    }
    if (rule.minCalls() != CircuitBreakerRule.DEFAULT_MIN_CALLS) {
      out.put("minCalls", rule.minCalls());
    }
    if (!rule.window().equals(CircuitBreakerRule.DEFAULT_WINDOW)) {
      Json.duration(out, "window", rule.window());
    }
    if (rule.buckets() != CircuitBreakerRule.DEFAULT_BUCKETS) {
      out.put("buckets", rule.buckets());
    }
    if (!rule.openFor().equals(CircuitBreakerRule.DEFAULT_OPEN_FOR)) {
      Json.duration(out, "openFor", rule.openFor());
    }
    if (rule.probes() != CircuitBreakerRule.DEFAULT_PROBES) {
      out.put("probes", rule.probes());
    }
    Duration probeTimeout = rule.probeTimeout();
    if (probeTimeout != null) {
      Json.duration(out, "probeTimeout", probeTimeout);
    }
  }
}
