package dev.guard.testkit.traffic;

import dev.guard.testkit.internal.DurationArguments;
import dev.guard.ConcurrencyGuard;
import dev.guard.Guard;
import dev.guard.QpsGuard;
import dev.guard.QuotaGuard;
import dev.guard.ShapedQpsGuard;
import dev.guard.api.rule.Quota;
import dev.guard.api.rule.FlowRule;
import java.util.List;
import java.util.Objects;

/**
 * Turns a {@link FlowRule} value back into the {@link Guard} steps that declare it, so that
 * generated rules can be exercised through the DSL. The result is checked: the guard must declare
 * exactly the given rule, otherwise the rule has settings the DSL cannot express.
 */
final class GuardDeclarations {

  private GuardDeclarations() {}

  static Guard declare(FlowRule rule) {
    Guard guard = rule.metric() == FlowRule.Metric.QPS ? qps(rule) : concurrency(rule);
    if (!guard.flowRules().equals(List.of(rule))) {
      throw DurationArguments.invalid("rule", rule, "must be expressible through the Guard DSL, which gives "
          + guard.flowRules());
    }
    return guard;
  }

  private static Guard qps(FlowRule rule) {
    QpsGuard guard = Guard.of(rule.resource()).qps(rule.threshold());
    if (!rule.origin().equals(FlowRule.EVERY_ORIGIN)) {
      guard = guard.fromOrigin(rule.origin());
    }
    switch (rule.strategy()) {
      case RELATED -> guard = guard.relatedTo(Objects.requireNonNull(rule.reference()));
      case ENTRANCE -> guard = guard.fromEntrance(Objects.requireNonNull(rule.reference()));
      case DIRECT -> { }
    }
    if (!rule.quotas().isEmpty()) {
      QuotaGuard quoted = null;
      for (Quota quota : rule.quotas()) {
        quoted = quoted == null ? guard.quota(quota.limit(), quota.period())
            : quoted.quota(quota.limit(), quota.period());
      }
      return Objects.requireNonNull(quoted);
    }
    FlowRule.WarmUp warmUp = rule.warmUp();
    ShapedQpsGuard shaped = warmUp == null ? null
        : guard.warmUp(warmUp.period(), warmUp.coldFactor());
    if (rule.shaping() == FlowRule.Shaping.PACING) {
      shaped = shaped == null ? guard.pacing(rule.maxQueueingTime())
          : shaped.pacing(rule.maxQueueingTime());
    }
    return shaped == null ? guard : shaped;
  }

  private static ConcurrencyGuard concurrency(FlowRule rule) {
    ConcurrencyGuard guard = Guard.of(rule.resource()).concurrency(limit(rule));
    if (!rule.origin().equals(FlowRule.EVERY_ORIGIN)) {
      guard = guard.fromOrigin(rule.origin());
    }
    switch (rule.strategy()) {
      case RELATED -> guard = guard.relatedTo(Objects.requireNonNull(rule.reference()));
      case ENTRANCE -> guard = guard.fromEntrance(Objects.requireNonNull(rule.reference()));
      case DIRECT -> { }
    }
    return guard;
  }

  private static int limit(FlowRule rule) {
    double count = rule.threshold();
    if (count != Math.rint(count) || count > Integer.MAX_VALUE) {
      throw DurationArguments.invalid("rule", rule, "must have a whole concurrency count");
    }
    return (int) count;
  }
}
