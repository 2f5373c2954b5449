package dev.guard.rules.internal;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Quota;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Per-value rules (a limit per argument value), named as the DSL names them ({@code
 * perValue}, {@code perValueConcurrency}, {@code burst}, {@code period}, {@code except}, {@code
 * valueType}, {@code maxValues}, {@code pacing}):
 *
 * <pre>{@code
 * {"resource": "profile", "argumentIndex": 0, "threshold": 5, "burst": 2, "period": "PT1S",
 *  "valueType": "string", "exceptions": [{"value": "vip", "threshold": 50}], "maxValues": 4000}
 * {"resource": "export", "argumentIndex": -1, "concurrency": 2}
 * {"resource": "api", "argumentIndex": 0, "threshold": 100, "period": "PT1M",
 *  "quotas": [{"limit": 10000, "period": "P1D"}], "cluster": {"flowId": "api-keys"}}
 * }</pre>
 *
 * <p>{@code quotas} lists further limits of every value ({@code limit} calls per {@code period});
 * {@code cluster} shares each value's budget through the token service: {@code flowId} (required)
 * and {@code fallbackToLocal} (default true), nothing else.
 *
 * <p>Exactly one of {@code threshold} (tokens per period) and {@code concurrency}. Exception values
 * are JSON strings, numbers or booleans, read as the {@code valueType} says: {@code "string"},
 * {@code "int"}, {@code "long"}, {@code "double"}, {@code "boolean"} or {@code "any"} (the
 * default: a string, an int, a long when too big for an int, a double, or a boolean, as written).
 * No other type can be named, so a document never names a class.
 */
final class PerValueFormat implements KindFormat<PerValueRule> {

  private static final String PLACEHOLDER = "resource";

  private static final Map<String, Class<?>> TYPES = Map.of(
      "string", String.class, "int", Integer.class, "long", Long.class,
      "double", Double.class, "boolean", Boolean.class, "any", Object.class);

  private static final Map<String, String> PATHS = Map.of(
      "resource", "resource",
      "argumentIndex", "argumentIndex",
      "burst", "burst",
      "period", "period",
      "shaping", "pacing",
      "maxQueueingTime", "pacing.maxQueueing",
      "maxValues", "maxValues",
      "quotas", "quotas",
      "cluster", "cluster");

  @Override
  public int maxPerResource() {
    return RuleLimits.MAX_PER_VALUE_RULES_PER_RESOURCE;
  }

  @Override
  public String key() {
    return "perValue";
  }

  @Override
  public Class<PerValueRule> type() {
    return PerValueRule.class;
  }

  private static PerValueRule base() {
    return PerValueRule.qps(PLACEHOLDER, 0, 1);
  }

  @Override
  public @Nullable PerValueRule read(Fields fields) {
    String resource = fields.string("resource");
    fields.require("resource", resource);
    String validResource = resource != null
        && fields.check("resource", () -> PerValueRule.qps(resource, 0, 0)) ? resource : null;
    Integer index = fields.wholeNumber("argumentIndex");
    fields.require("argumentIndex", index);
    Integer count = fields.wholeNumber("threshold");
    Integer concurrency = fields.wholeNumber("concurrency");
    FlowRule.Metric grade = concurrency != null && count == null ? FlowRule.Metric.CONCURRENCY : FlowRule.Metric.QPS;
    Integer threshold = count != null ? count : concurrency;
    int validThreshold = 0;
    if (count != null && concurrency != null) {
      fields.error("concurrency",
          "must not be given with threshold: a rule limits one or the other");
    } else if (threshold != null) {
      int value = threshold;
      if (fields.check(grade == FlowRule.Metric.QPS ? "threshold" : "concurrency",
          () -> base().withThreshold(value))) {
        validThreshold = value;
      }
    } else if (!fields.has("threshold") && !fields.has("concurrency")) {
      fields.error("needs \"threshold\" or \"concurrency\"");
    }
    Integer burst = checked(fields, "burst", fields.wholeNumber("burst"),
        value -> base().withBurst(value));
    Duration givenPeriod = fields.duration("period");
    Duration period = givenPeriod != null
        && fields.check("period", () -> base().withPeriod(givenPeriod)) ? givenPeriod : null;
    Fields pacing = fields.object("pacing");
    Duration maxQueueing = pacing == null ? null : maxQueueing(pacing);
    Class<?> valueType = valueType(fields);
    Map<Object, Integer> exceptions = exceptions(fields, valueType);
    Integer maxValues = checked(fields, "maxValues", fields.wholeNumber("maxValues"),
        value -> base().withMaxValues(value));
    List<Quota> quotas = quotas(fields);
    Fields shared = fields.object("cluster");
    ClusterMode cluster = shared == null ? null : cluster(shared);
    fields.finish();

    Duration rulePeriod = period == null ? PerValueRule.DEFAULT_PERIOD : period;
    int thresholdValue = validThreshold;
    PerValueRule rule = fields.build(() -> new PerValueRule(
        validResource == null ? PLACEHOLDER : validResource,
        index == null ? 0 : index,
        grade,
        thresholdValue,
        burst == null ? 0 : burst,
        rulePeriod,
        fields.has("pacing") ? FlowRule.Shaping.PACING : FlowRule.Shaping.REFUSE,
        fields.has("pacing")
            ? (maxQueueing == null ? FlowRule.DEFAULT_MAX_QUEUEING_TIME : maxQueueing)
            : Duration.ZERO,
        exceptions,
        valueType,
        maxValues == null ? PerValueRule.defaultMaxValues(rulePeriod) : maxValues,
        quotas, cluster), PATHS);
    return fields.clean() ? rule : null;
  }

  /** A rule's {@code quotas}: every valid item; the invalid ones reported, naming the field. */
  static List<Quota> quotas(Fields fields) {
    List<Fields> items = fields.objects("quotas");
    List<Quota> quotas = new ArrayList<>();
    if (items == null) {
      return quotas;
    }
    for (Fields item : items) {
      Integer limit = item.wholeNumber("limit");
      item.require("limit", limit);
      Duration period = item.duration("period");
      item.require("period", period);
      item.finish();
      boolean valid = limit == null
          || item.check("limit", () -> new Quota(limit, Duration.ofSeconds(1)));
      valid &= period == null || item.check("period", () -> new Quota(0, period));
      if (valid && limit != null && period != null) {
        quotas.add(new Quota(limit, period));
      }
    }
    return quotas;
  }

  /** Writes {@code quotas} (a rule without quotas writes nothing). */
  static void writeQuotas(List<Quota> quotas, ObjectNode out) {
    if (quotas.isEmpty()) {
      return;
    }
    ArrayNode list = out.putArray("quotas");
    for (Quota quota : quotas) {
      ObjectNode item = list.addObject();
      item.put("limit", quota.limit());
      Json.duration(item, "period", quota.period());
    }
  }

  private static @Nullable ClusterMode cluster(Fields fields) {
    String flowId = fields.string("flowId");
    boolean valid = fields.require("flowId", flowId);
    if (flowId != null) {
      String id = flowId;
      valid = fields.check("flowId", () -> ClusterMode.global(id));
    }
    Boolean fallbackToLocal = FlowFormat.fallbackToLocal(fields);
    fields.finish();
    return valid && flowId != null && fallbackToLocal != null
        ? ClusterMode.global(flowId).withFallbackToLocal(fallbackToLocal) : null;
  }

  private interface Check {
    void run(int value);
  }

  private static @Nullable Integer checked(
      Fields fields, String field, @Nullable Integer value, Check check) {
    if (value == null) {
      return null;
    }
    int given = value;
    return fields.check(field, () -> check.run(given)) ? value : null;
  }

  private static @Nullable Duration maxQueueing(Fields fields) {
    Duration bound = fields.duration("maxQueueing");
    boolean valid = bound != null
        && fields.check("maxQueueing", () -> base().withPacing(bound));
    fields.finish();
    return valid ? bound : null;
  }

  private static Class<?> valueType(Fields fields) {
    String name = fields.string("valueType");
    if (name == null) {
      return Object.class;
    }
    Class<?> type = TYPES.get(name);
    if (type == null) {
      fields.error("valueType", "must be one of \"string\", \"int\", \"long\", \"double\", "
          + "\"boolean\" or \"any\", was \"" + name + "\"");
      return Object.class;
    }
    return type;
  }

  private static Map<Object, Integer> exceptions(Fields fields, Class<?> valueType) {
    List<Fields> items = fields.objects("exceptions");
    Map<Object, Integer> exceptions = new HashMap<>();
    if (items == null) {
      return exceptions;
    }
    for (Fields item : items) {
      Object value = value(item, valueType);
      Integer count = item.wholeNumber("threshold");
      item.require("threshold", count);
      item.finish();
      if (value != null && exceptions.containsKey(value)) {
        item.error("value", "must differ from the other exceptions' values, was "
            + Fields.show(java.util.Objects.requireNonNull(item.raw("value"))));
      } else if (value != null && count != null && item.check("threshold",
          () -> PerValueRule.qps(PLACEHOLDER, 0, 0).withValueType(valueType)
              .withException(value, count))) {
        exceptions.put(value, count);
      }
    }
    return exceptions;
  }

  /** An exception's value as {@code valueType} reads it; null (reported) if it cannot. */
  private static @Nullable Object value(Fields item, Class<?> valueType) {
    JsonNode node = item.raw("value");
    if (node == null) {
      item.require("value", null);
      return null;
    }
    Object value = null;
    if (valueType == String.class || valueType == Object.class && node.isString()) {
      value = node.isString() ? node.stringValue() : null;
    } else if (valueType == Integer.class || valueType == Object.class && node.canConvertToInt()
        && node.isIntegralNumber()) {
      value = node.isIntegralNumber() && node.canConvertToInt() ? node.intValue() : null;
    } else if (valueType == Long.class || valueType == Object.class && node.isIntegralNumber()) {
      value = node.isIntegralNumber() && node.canConvertToLong() ? node.longValue() : null;
    } else if (valueType == Double.class || valueType == Object.class && node.isNumber()) {
      value = node.isNumber() && Double.isFinite(Fields.toDouble(node)) ? node.doubleValue() : null;
    } else if (valueType == Boolean.class || valueType == Object.class && node.isBoolean()) {
      value = node.isBoolean() ? node.booleanValue() : null;
    }
    if (value == null) {
      item.error("value", "must be a " + typeName(valueType) + ", was " + Fields.show(node));
    }
    return value;
  }

  private static String typeName(Class<?> type) {
    for (Map.Entry<String, Class<?>> entry : TYPES.entrySet()) {
      if (entry.getValue() == type) {
        return entry.getKey().equals("any") ? "string, number or boolean" : entry.getKey();
      }
    }
    return type.getName();
  }

  @Override
  public void write(PerValueRule rule, ObjectNode out) {
    String type = null;
    for (Map.Entry<String, Class<?>> entry : TYPES.entrySet()) {
      if (entry.getValue() == rule.valueType()) {
        type = entry.getKey();
      }
    }
    if (type == null) {
      throw new IllegalArgumentException("valueType must be String, Integer, Long, Double, "
          + "Boolean or Object to be written, was " + rule.valueType().getName());
    }
    out.put("resource", rule.resource());
    out.put("argumentIndex", rule.argumentIndex());
    out.put(rule.metric() == FlowRule.Metric.QPS ? "threshold" : "concurrency", rule.threshold());
    if (rule.burst() != 0) {
      out.put("burst", rule.burst());
    }
    if (!rule.period().equals(PerValueRule.DEFAULT_PERIOD)) {
      Json.duration(out, "period", rule.period());
    }
    if (rule.shaping() == FlowRule.Shaping.PACING) {
      Json.duration(out.putObject("pacing"), "maxQueueing", rule.maxQueueingTime());
    }
    if (!type.equals("any")) {
      out.put("valueType", type);
    }
    if (!rule.exceptions().isEmpty()) {
      ArrayNode list = out.putArray("exceptions");
      rule.exceptions().entrySet().stream()
          .sorted(Map.Entry.comparingByKey((a, b) -> String.valueOf(a).compareTo(String.valueOf(b))))
          .forEach(exception -> writeException(list.addObject(), exception, rule.valueType()));
    }
    if (rule.maxValues() != PerValueRule.defaultMaxValues(rule.period())) {
      out.put("maxValues", rule.maxValues());
    }
    if (!rule.quotas().isEmpty()) {
      writeQuotas(rule.quotas(), out);
    }
    ClusterMode cluster = rule.cluster();
    if (cluster != null) {
      ObjectNode shared = out.putObject("cluster");
      shared.put("flowId", cluster.flowId());
      if (!cluster.fallbackToLocal()) {
        shared.put("fallbackToLocal", false);
      }
    }
  }

  private static void writeException(
      ObjectNode out, Map.Entry<Object, Integer> exception, Class<?> valueType) {
    Object value = exception.getKey();
    boolean readsBack = valueType != Object.class
        || value instanceof String || value instanceof Boolean || value instanceof Double
        || value instanceof Integer
        || value instanceof Long && (Long) value != ((Long) value).intValue();
    if (!readsBack) {
      throw new IllegalArgumentException("exception value " + value + " ("
          + value.getClass().getName() + ") must have a valueType to be written");
    }
    if (value instanceof String text) {
      out.put("value", text);
    } else if (value instanceof Integer number) {
      out.put("value", number);
    } else if (value instanceof Long number) {
      out.put("value", number);
    } else if (value instanceof Double number) {
      out.put("value", number);
    } else {
      out.put("value", (Boolean) value);
    }
    out.put("threshold", exception.getValue());
  }
}
