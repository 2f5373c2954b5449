package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowGrade;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.FlowStrategy;

/** Chooses the traffic-shaping controller of a flow rule (docs/SHAPING.md). */
final class Controllers {

  private Controllers() {}

  static TrafficShapingController of(FlowRule rule, long occupyTimeoutMs) {
    boolean wholeResource = rule.strategy() == FlowStrategy.DIRECT
        && rule.limitApp().equals(FlowRule.DEFAULT_APP);
    if (rule.grade() == FlowGrade.CONCURRENCY) {
      return new RejectController(FlowGrade.CONCURRENCY, rule.count(), occupyTimeoutMs, false);
    }
    switch (rule.behavior()) {
      case WARM_UP:
        return new WarmUpController(
            rule.count(), rule.warmUpPeriod(), rule.coldFactor(), wholeResource);
      case PACING:
        return new PacingController(rule.count(), rule.maxQueueingTime());
      case WARM_UP_PACING:
        return new WarmUpPacingController(
            rule.count(), rule.warmUpPeriod(), rule.coldFactor(), rule.maxQueueingTime());
      case REJECT:
      default:
        return new RejectController(FlowGrade.QPS, rule.count(), occupyTimeoutMs, wholeResource);
    }
  }
}
