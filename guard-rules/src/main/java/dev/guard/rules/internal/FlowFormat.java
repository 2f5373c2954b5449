package dev.guard.rules.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.api.rule.ControlBehavior;
import dev.guard.api.rule.FlowGrade;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.FlowStrategy;
import dev.guard.api.rule.WarmUp;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Flow rules, named as the DSL names them:
 *
 * <pre>{@code
 * {"resource": "checkout", "qps": 40, "limitApp": "mobile", "relatedTo": "db",
 *  "warmUp": {"period": "PT10S", "coldFactor": 3}, "pacing": {"maxQueueing": "PT0.5S"}}
 * {"resource": "reports", "concurrency": 4, "fromEntrance": "api"}
 * }</pre>
 *
 * <p>Exactly one of {@code qps} and {@code concurrency}; at most one of {@code relatedTo} (the
 * RELATE strategy) and {@code fromEntrance} (CHAIN); {@code pacing} present means the PACING
 * behaviour. A rule without pacing carries the default queueing bound, which only pacing uses.
 */
final class FlowFormat implements KindFormat<FlowRule> {

  private static final String PLACEHOLDER = "resource";

  private static final Map<String, String> PATHS = Map.of(
      "resource", "resource",
      "limitApp", "limitApp",
      "behavior", "pacing",
      "warmUp", "warmUp",
      "maxQueueingTime", "pacing.maxQueueing",
      "warmUpPeriod", "warmUp.period",
      "coldFactor", "warmUp.coldFactor");

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
    FlowGrade grade = concurrency != null && qps == null ? FlowGrade.CONCURRENCY : FlowGrade.QPS;
    Double count = qps != null ? qps : concurrency;
    double validCount = 0;
    if (qps != null && concurrency != null) {
      fields.error("concurrency", "must not be given with qps: a rule limits one or the other");
    } else if (count != null) {
      double value = count;
      if (fields.check(grade == FlowGrade.QPS ? "qps" : "concurrency",
          () -> FlowRule.qps(PLACEHOLDER, value))) {
        validCount = value;
      }
    } else if (!fields.has("qps") && !fields.has("concurrency")) {
      fields.error("needs \"qps\" or \"concurrency\"");
    }
    String limitApp = fields.string("limitApp");
    String relatedTo = fields.string("relatedTo");
    String fromEntrance = fields.string("fromEntrance");
    FlowStrategy strategy = strategy(fields, relatedTo, fromEntrance);
    String ref = strategy == FlowStrategy.RELATE ? relatedTo : fromEntrance;
    boolean refValid = strategy == FlowStrategy.DIRECT
        || fields.check(strategy == FlowStrategy.RELATE ? "relatedTo" : "fromEntrance",
            () -> FlowRule.qps(PLACEHOLDER, 0).withStrategy(strategy, ref));
    WarmUp warmUp = warmUp(fields.object("warmUp"));
    Fields pacing = fields.object("pacing");
    Duration maxQueueing = pacing == null ? null : maxQueueing(pacing);
    fields.finish();

    // cross-field rules of the record, from values that passed their own checks
    FlowStrategy checkedStrategy = refValid ? strategy : FlowStrategy.DIRECT;
    double checkedCount = validCount;
    FlowRule rule = fields.build(() -> new FlowRule(
        validResource == null ? PLACEHOLDER : validResource,
        grade,
        checkedCount,
        limitApp == null ? FlowRule.DEFAULT_APP : limitApp,
        checkedStrategy,
        checkedStrategy == FlowStrategy.DIRECT ? null : ref,
        fields.has("pacing") ? ControlBehavior.PACING : ControlBehavior.REJECT,
        warmUp,
        maxQueueing == null ? FlowRule.DEFAULT_MAX_QUEUEING_TIME : maxQueueing), PATHS);
    return fields.clean() ? rule : null;
  }

  private static FlowStrategy strategy(
      Fields fields, @Nullable String relatedTo, @Nullable String fromEntrance) {
    if (relatedTo != null && fromEntrance != null) {
      fields.error("fromEntrance",
          "must not be given with relatedTo: a rule measures one or the other");
    }
    if (relatedTo != null) {
      return FlowStrategy.RELATE;
    }
    return fromEntrance != null ? FlowStrategy.CHAIN : FlowStrategy.DIRECT;
  }

  private static @Nullable WarmUp warmUp(@Nullable Fields fields) {
    if (fields == null) {
      return null;
    }
    Duration period = fields.duration("period");
    Integer coldFactor = fields.wholeNumber("coldFactor");
    fields.require("period", period);
    boolean valid = period != null
        && fields.check("period", () -> WarmUp.of(period));
    int factor = coldFactor == null ? WarmUp.DEFAULT_COLD_FACTOR : coldFactor;
    if (coldFactor != null
        && !fields.check("coldFactor", () -> new WarmUp(Duration.ofSeconds(1), factor))) {
      valid = false;
    }
    fields.finish();
    return valid && period != null ? new WarmUp(period, factor) : null;
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
    Json.number(out, rule.grade() == FlowGrade.QPS ? "qps" : "concurrency", rule.count());
    if (!rule.limitApp().equals(FlowRule.DEFAULT_APP)) {
      out.put("limitApp", rule.limitApp());
    }
    if (rule.strategy() == FlowStrategy.RELATE) {
      out.put("relatedTo", rule.refResource());
    } else if (rule.strategy() == FlowStrategy.CHAIN) {
      out.put("fromEntrance", rule.refResource());
    }
    WarmUp warmUp = rule.warmUp();
    if (warmUp != null) {
      ObjectNode warm = out.putObject("warmUp");
      Json.duration(warm, "period", warmUp.period());
      if (warmUp.coldFactor() != WarmUp.DEFAULT_COLD_FACTOR) {
        warm.put("coldFactor", warmUp.coldFactor());
      }
    }
    if (rule.behavior() == ControlBehavior.PACING) {
      Json.duration(out.putObject("pacing"), "maxQueueing", rule.maxQueueingTime());
    }
  }
}
