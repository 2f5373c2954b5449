package dev.guard.rules.internal;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Quota;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Flow rules, named as the DSL names them:
 *
 * <pre>{@code
 * {"resource": "checkout", "qps": 40, "origin": "mobile", "relatedTo": "db",
 *  "warmUp": {"period": "PT10S", "coldFactor": 3}, "pacing": {"maxQueueing": "PT0.5S"}}
 * {"resource": "reports", "concurrency": 4, "fromEntrance": "api"}
 * {"resource": "orders", "qps": 1000, "cluster": {"flowId": "orders", "threshold": "PER_INSTANCE",
 *  "fallbackToLocal": false, "window": "PT1S", "buckets": 10, "leaseTime": "PT2S"}}
 * {"resource": "partnerApi", "qps": 50, "quotas": [{"limit": 1000, "period": "PT1M"},
 *  {"limit": 50000, "period": "P1D"}], "cluster": {"flowId": "partner-api"}}
 * }</pre>
 *
 * <p>Exactly one of {@code qps} and {@code concurrency}; at most one of {@code relatedTo} (the
 * RELATED strategy) and {@code fromEntrance} (ENTRANCE); {@code pacing} present means PACING
 * shaping. A rule without pacing carries the default queueing bound, which only pacing uses.
 * {@code quotas} is read and written as a per-value rule's ({@code limit} calls per {@code
 * period} each), only on a qps rule without warm-up, pacing, {@code relatedTo} or {@code
 * fromEntrance}.
 */
final class FlowFormat implements KindFormat<FlowRule> {

  private static final String PLACEHOLDER = "resource";

  private static final Map<String, String> PATHS = Map.of(
      "resource", "resource",
      "origin", "origin",
      "shaping", "pacing",
      "warmUp", "warmUp",
      "maxQueueingTime", "pacing.maxQueueing",
      "warmUpPeriod", "warmUp.period",
      "coldFactor", "warmUp.coldFactor",
      "cluster", "cluster",
      "cluster.threshold", "cluster.threshold",
      "quotas", "quotas");

  @Override
  public String key() {
    return "flow";
  }

  @Override
  public Class<FlowRule> type() {
    return FlowRule.class;
  }

  @Override
  public @Nullable FlowRule read(Fields fields) {
    String resource = fields.string("resource");
    fields.require("resource", resource);
    String validResource = resource != null
        && fields.check("resource", () -> FlowRule.qps(resource, 0)) ? resource : null;
    Double qps = fields.number("qps");
    Double concurrency = fields.number("concurrency");
    FlowRule.Metric grade = concurrency != null && qps == null ? FlowRule.Metric.CONCURRENCY : FlowRule.Metric.QPS;
    Double count = qps != null ? qps : concurrency;
    double validCount = 0;
    if (qps != null && concurrency != null) {
      fields.error("concurrency", "must not be given with qps: a rule limits one or the other");
    } else if (count != null) {
      double value = count;
      if (fields.check(grade == FlowRule.Metric.QPS ? "qps" : "concurrency",
          () -> FlowRule.qps(PLACEHOLDER, value))) {
        validCount = value;
      }
    } else if (!fields.has("qps") && !fields.has("concurrency")) {
      fields.error("needs \"qps\" or \"concurrency\"");
    }
    String origin = fields.string("origin");
    String relatedTo = fields.string("relatedTo");
    String fromEntrance = fields.string("fromEntrance");
    FlowRule.Strategy strategy = strategy(fields, relatedTo, fromEntrance);
    String ref = strategy == FlowRule.Strategy.RELATED ? relatedTo : fromEntrance;
    boolean refValid = strategy == FlowRule.Strategy.DIRECT
        || fields.check(strategy == FlowRule.Strategy.RELATED ? "relatedTo" : "fromEntrance",
            () -> FlowRule.qps(PLACEHOLDER, 0).withStrategy(strategy, ref));
    FlowRule.WarmUp warmUp = warmUp(fields.object("warmUp"));
    Fields pacing = fields.object("pacing");
    Duration maxQueueing = pacing == null ? null : maxQueueing(pacing);
    ClusterMode cluster = cluster(fields.object("cluster"));
    List<Quota> quotas = PerValueFormat.quotas(fields);
    fields.finish();

    // cross-field rules of the record, from values that passed their own checks
    FlowRule.Strategy checkedStrategy = refValid ? strategy : FlowRule.Strategy.DIRECT;
    double checkedCount = validCount;
    FlowRule rule = fields.build(() -> new FlowRule(
        validResource == null ? PLACEHOLDER : validResource,
        grade,
        checkedCount,
        origin == null ? FlowRule.EVERY_ORIGIN : origin,
        checkedStrategy,
        checkedStrategy == FlowRule.Strategy.DIRECT ? null : ref,
        fields.has("pacing") ? FlowRule.Shaping.PACING : FlowRule.Shaping.REFUSE,
        warmUp,
        maxQueueing == null ? FlowRule.DEFAULT_MAX_QUEUEING_TIME : maxQueueing,
        cluster, quotas), PATHS);
    return fields.clean() ? rule : null;
  }

  private static FlowRule.Strategy strategy(
      Fields fields, @Nullable String relatedTo, @Nullable String fromEntrance) {
    if (relatedTo != null && fromEntrance != null) {
      fields.error("fromEntrance",
          "must not be given with relatedTo: a rule measures one or the other");
    }
    if (relatedTo != null) {
      return FlowRule.Strategy.RELATED;
    }
    return fromEntrance != null ? FlowRule.Strategy.ENTRANCE : FlowRule.Strategy.DIRECT;
  }

  private static FlowRule.@Nullable WarmUp warmUp(@Nullable Fields fields) {
    if (fields == null) {
      return null;
    }
    Duration period = fields.duration("period");
    Integer coldFactor = fields.wholeNumber("coldFactor");
    fields.require("period", period);
    boolean valid = period != null
        && fields.check("period", () -> FlowRule.WarmUp.of(period));
    int factor = coldFactor == null ? FlowRule.WarmUp.DEFAULT_COLD_FACTOR : coldFactor;
    if (coldFactor != null
        && !fields.check("coldFactor", () -> new FlowRule.WarmUp(Duration.ofSeconds(1), factor))) {
      valid = false;
    }
    fields.finish();
    return valid && period != null ? new FlowRule.WarmUp(period, factor) : null;
  }

  /**
   * A cluster mode's {@code fallbackToLocal}: true when absent, null (reported) when not a
   * boolean.
   */
  static @Nullable Boolean fallbackToLocal(Fields fields) {
    JsonNode fallback = fields.raw("fallbackToLocal");
    if (fallback == null) {
      return Boolean.TRUE;
    }
    if (!fallback.isBoolean()) {
      fields.error("fallbackToLocal", "must be true or false, was " + Fields.show(fallback));
      return null;
    }
    return fallback.booleanValue();
  }

  private static @Nullable ClusterMode cluster(@Nullable Fields fields) {
    if (fields == null) {
      return null;
    }
    String flowId = fields.string("flowId");
    boolean valid = fields.require("flowId", flowId);
    if (flowId != null) {
      String id = flowId;
      valid = fields.check("flowId", () -> ClusterMode.global(id));
    }
    ClusterMode.Threshold threshold = ClusterMode.Threshold.GLOBAL;
    String named = fields.string("threshold");
    if (named != null) {
      try {
        threshold = ClusterMode.Threshold.valueOf(named);
      } catch (IllegalArgumentException unknown) {
        fields.error("threshold", "must be GLOBAL or PER_INSTANCE, was \"" + named + "\"");
        valid = false;
      }
    }
    Boolean fallback = fallbackToLocal(fields);
    boolean fallbackToLocal = fallback == null || fallback;
    valid &= fallback != null;
    Duration window = fields.duration("window");
    Integer buckets = fields.wholeNumber("buckets");
    Duration leaseTime = fields.duration("leaseTime");
    Duration checkedWindow = window == null ? ClusterMode.DEFAULT_WINDOW : window;
    int checkedBuckets = buckets == null ? ClusterMode.DEFAULT_BUCKETS : buckets;
    if (window != null || buckets != null) {
      valid &= fields.build(() -> ClusterMode.global("id").withWindow(checkedBuckets,
          checkedWindow), Map.of("window", "window", "buckets", "buckets")) != null;
    }
    if (leaseTime != null) {
      valid &= fields.check("leaseTime", () -> ClusterMode.global("id").withLeaseTime(leaseTime));
    }
    fields.finish();
    if (!valid || flowId == null) {
      return null;
    }
    return new ClusterMode(flowId, threshold, fallbackToLocal, checkedWindow, checkedBuckets,
        leaseTime == null ? ClusterMode.DEFAULT_LEASE_TIME : leaseTime);
  }

  private static @Nullable Duration maxQueueing(Fields fields) {
    Duration bound = fields.duration("maxQueueing");
    boolean valid = bound != null && fields.check("maxQueueing",
        () -> FlowRule.qps(PLACEHOLDER, 0).withMaxQueueingTime(bound));
    fields.finish();
    return valid ? bound : null;
  }

  @Override
  public void write(FlowRule rule, ObjectNode out) {
    out.put("resource", rule.resource());
    Json.number(out, rule.metric() == FlowRule.Metric.QPS ? "qps" : "concurrency", rule.threshold());
    if (!rule.origin().equals(FlowRule.EVERY_ORIGIN)) {
      out.put("origin", rule.origin());
    }
    if (rule.strategy() == FlowRule.Strategy.RELATED) {
      out.put("relatedTo", rule.reference());
    } else if (rule.strategy() == FlowRule.Strategy.ENTRANCE) {
      out.put("fromEntrance", rule.reference());
    }
    FlowRule.WarmUp warmUp = rule.warmUp();
    if (warmUp != null) {
      ObjectNode warm = out.putObject("warmUp");
      Json.duration(warm, "period", warmUp.period());
      if (warmUp.coldFactor() != FlowRule.WarmUp.DEFAULT_COLD_FACTOR) {
        warm.put("coldFactor", warmUp.coldFactor());
      }
    }
    if (rule.shaping() == FlowRule.Shaping.PACING) {
      Json.duration(out.putObject("pacing"), "maxQueueing", rule.maxQueueingTime());
    }
    PerValueFormat.writeQuotas(rule.quotas(), out);
    ClusterMode cluster = rule.cluster();
    if (cluster != null) {
      ObjectNode shared = out.putObject("cluster");
      shared.put("flowId", cluster.flowId());
      if (cluster.threshold() != ClusterMode.Threshold.GLOBAL) {
        shared.put("threshold", cluster.threshold().name());
      }
      if (!cluster.fallbackToLocal()) {
        shared.put("fallbackToLocal", false);
      }
      if (!cluster.window().equals(ClusterMode.DEFAULT_WINDOW)
          || cluster.buckets() != ClusterMode.DEFAULT_BUCKETS) {
        Json.duration(shared, "window", cluster.window());
        shared.put("buckets", cluster.buckets());
      }
      if (!cluster.leaseTime().equals(ClusterMode.DEFAULT_LEASE_TIME)) {
        Json.duration(shared, "leaseTime", cluster.leaseTime());
      }
    }
  }
}
