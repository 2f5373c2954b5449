package dev.guard.rules.internal;

import dev.guard.api.rule.SystemRule;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * System rules: engine-wide limits on inbound traffic, without a resource, named as {@link
 * SystemRule}'s {@code with..} steps name them; every threshold is optional:
 *
 * <pre>{@code
 * {"maxInboundQps": 5000, "maxConcurrency": 200, "maxAverageRt": "PT0.1S",
 *  "maxSystemLoad": 4.0, "maxCpuUsage": 0.8}
 * }</pre>
 */
final class SystemFormat implements KindFormat<SystemRule> {

  private static final Map<String, String> PATHS = Map.of(
      "maxInboundQps", "maxInboundQps",
      "maxConcurrency", "maxConcurrency",
      "maxAverageRt", "maxAverageRt",
      "maxSystemLoad", "maxSystemLoad",
      "maxCpuUsage", "maxCpuUsage");

  @Override
  public String key() {
    return "system";
  }

  @Override
  public Class<SystemRule> type() {
    return SystemRule.class;
  }

  @Override
  public @Nullable SystemRule read(Fields fields) {
    Double qps = valid(fields, "maxInboundQps", fields.number("maxInboundQps"),
        value -> SystemRule.of().withMaxInboundQps(value));
    Integer givenConcurrency = fields.wholeNumber("maxConcurrency");
    Integer concurrency = givenConcurrency != null && fields.check("maxConcurrency",
        () -> SystemRule.of().withMaxConcurrency(givenConcurrency)) ? givenConcurrency : null;
    Duration givenRt = fields.duration("maxAverageRt");
    Duration rt = givenRt != null && fields.check("maxAverageRt",
        () -> SystemRule.of().withMaxAverageRt(givenRt)) ? givenRt : null;
    Double load = valid(fields, "maxSystemLoad", fields.number("maxSystemLoad"),
        value -> SystemRule.of().withMaxSystemLoad(value));
    Double cpu = valid(fields, "maxCpuUsage", fields.number("maxCpuUsage"),
        value -> SystemRule.of().withMaxCpuUsage(value));
    fields.finish();
    SystemRule rule = fields.build(
        () -> new SystemRule(qps, concurrency, rt, load, cpu), PATHS);
    return fields.clean() ? rule : null;
  }

  private interface Check {
    void run(double value);
  }

  private static @Nullable Double valid(
      Fields fields, String field, @Nullable Double value, Check check) {
    if (value == null) {
      return null;
    }
    double given = value;
    return fields.check(field, () -> check.run(given)) ? value : null;
  }

  @Override
  public void write(SystemRule rule, ObjectNode out) {
    Double qps = rule.maxInboundQps();
    if (qps != null) {
      Json.number(out, "maxInboundQps", qps);
    }
    Integer concurrency = rule.maxConcurrency();
    if (concurrency != null) {
      out.put("maxConcurrency", concurrency);
    }
    Duration rt = rule.maxAverageRt();
    if (rt != null) {
      Json.duration(out, "maxAverageRt", rt);
    }
    Double load = rule.maxSystemLoad();
    if (load != null) {
      Json.number(out, "maxSystemLoad", load);
    }
    Double cpu = rule.maxCpuUsage();
    if (cpu != null) {
      Json.number(out, "maxCpuUsage", cpu);
    }
  }
}
