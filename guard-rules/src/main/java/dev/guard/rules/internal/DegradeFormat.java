package dev.guard.rules.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.api.rule.DegradeRule;
import dev.guard.api.rule.DegradeStrategy;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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
final class DegradeFormat implements KindFormat<DegradeRule> {

  private static final String PLACEHOLDER = "resource";
  private static final DegradeRule BASE = DegradeRule.errorRatio(PLACEHOLDER, 0);

  @Override
  public String key() {
    return "circuitBreakers";
  }

  /** The field that names a strategy and holds its threshold. */
  private static String keyOf(DegradeStrategy strategy) {
    return switch (strategy) {
      case SLOW_CALL_RATIO -> "slowCallRatio";
      case ERROR_RATIO -> "errorRatio";
      case ERROR_COUNT -> "errorCount";
    };
  }

  @Override
  public Class<DegradeRule> type() {
    return DegradeRule.class;
  }

  @Override
  public @Nullable DegradeRule read(Fields fields) {
    String resource = fields.string("resource");
    fields.require("resource", resource);
    String validResource = resource != null
        && fields.check("resource", () -> DegradeRule.errorRatio(resource, 0)) ? resource : null;
    DegradeStrategy strategy = strategy(fields);
    double threshold = threshold(fields, strategy);
    Duration slowerThan = slowerThan(fields, strategy);
    int minCalls = valid(fields, "minCalls", fields.wholeNumber("minCalls"),
        DegradeRule.DEFAULT_MIN_CALLS, value -> BASE.withMinCalls(value));
    Duration window = valid(fields, "window", fields.duration("window"),
        DegradeRule.DEFAULT_STAT_WINDOW, value -> BASE.withStatWindow(value, 1));
    int buckets = valid(fields, "buckets", fields.wholeNumber("buckets"),
        DegradeRule.DEFAULT_WINDOW_BUCKETS,
        value -> BASE.withStatWindow(Duration.ofMillis(Math.max(1, value)), value));
    Duration openFor = valid(fields, "openFor", fields.duration("openFor"),
        DegradeRule.DEFAULT_OPEN_FOR, value -> BASE.withOpenFor(value));
    int probes = valid(fields, "probes", fields.wholeNumber("probes"),
        DegradeRule.DEFAULT_MAX_PROBES, value -> BASE.withProbes(value, null));
    Duration givenTimeout = fields.duration("probeTimeout");
    Duration probeTimeout = givenTimeout != null && fields.check("probeTimeout",
        () -> BASE.withProbes(1, givenTimeout)) ? givenTimeout : null;
    fields.finish();

    DegradeRule rule = fields.build(() -> new DegradeRule(
        validResource == null ? PLACEHOLDER : validResource, strategy, threshold, slowerThan,
        minCalls, window, buckets, openFor, probes, probeTimeout), Map.of(
            "threshold", keyOf(strategy),
            "slowCallThreshold", "slowerThan",
            "statWindow", "window",
            "windowBuckets", "buckets",
            "maxProbes", "probes"));
    return fields.clean() ? rule : null;
  }

  /** The strategy named by the one strategy field present (error ratio when none is valid). */
  private static DegradeStrategy strategy(Fields fields) {
    DegradeStrategy found = null;
    for (DegradeStrategy strategy : DegradeStrategy.values()) {
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
      return DegradeStrategy.ERROR_RATIO;
    }
    return found;
  }

  private static double threshold(Fields fields, DegradeStrategy strategy) {
    String key = keyOf(strategy);
    Double value = fields.number(key);
    if (value == null) {
      return 0;
    }
    double given = value;
    boolean valid = fields.check(key, () -> new DegradeRule(PLACEHOLDER, strategy, given,
        strategy == DegradeStrategy.SLOW_CALL_RATIO ? Duration.ZERO : null,
        DegradeRule.DEFAULT_MIN_CALLS, DegradeRule.DEFAULT_STAT_WINDOW,
        DegradeRule.DEFAULT_WINDOW_BUCKETS, DegradeRule.DEFAULT_OPEN_FOR,
        DegradeRule.DEFAULT_MAX_PROBES, null));
    return valid ? given : 0;
  }

  private static @Nullable Duration slowerThan(Fields fields, DegradeStrategy strategy) {
    Duration given = fields.duration("slowerThan");
    if (strategy != DegradeStrategy.SLOW_CALL_RATIO) {
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
        () -> DegradeRule.slowCallRatio(PLACEHOLDER, given, 0));
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
  public void write(DegradeRule rule, ObjectNode out) {
    out.put("resource", rule.resource());
    Json.number(out, keyOf(rule.strategy()), rule.threshold());
    Duration slowerThan = rule.slowCallThreshold();
    if (slowerThan != null) {
      Json.duration(out, "slowerThan", slowerThan);
    }
    if (rule.minCalls() != DegradeRule.DEFAULT_MIN_CALLS) {
      out.put("minCalls", rule.minCalls());
    }
    if (!rule.statWindow().equals(DegradeRule.DEFAULT_STAT_WINDOW)) {
      Json.duration(out, "window", rule.statWindow());
    }
    if (rule.windowBuckets() != DegradeRule.DEFAULT_WINDOW_BUCKETS) {
      out.put("buckets", rule.windowBuckets());
    }
    if (!rule.openFor().equals(DegradeRule.DEFAULT_OPEN_FOR)) {
      Json.duration(out, "openFor", rule.openFor());
    }
    if (rule.maxProbes() != DegradeRule.DEFAULT_MAX_PROBES) {
      out.put("probes", rule.maxProbes());
    }
    Duration probeTimeout = rule.probeTimeout();
    if (probeTimeout != null) {
      Json.duration(out, "probeTimeout", probeTimeout);
    }
  }
}
