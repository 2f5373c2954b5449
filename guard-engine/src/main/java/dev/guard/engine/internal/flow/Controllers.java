package dev.guard.engine.internal.flow;

import dev.guard.api.rule.ControlBehavior;
import dev.guard.api.rule.FlowGrade;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.FlowStrategy;
import dev.guard.api.rule.WarmUp;

/** Chooses the traffic-shaping controller of a flow rule (docs/SHAPING.md): a rate source (the count, or a warm-up rate) and an
 * admission style (fast reject or pacing). */
final class Controllers {

  private Controllers() {}

  static TrafficShapingController of(FlowRule rule, long occupyTimeoutMs) {
    if (rule.grade() == FlowGrade.CONCURRENCY) {
      return new RejectController(
          FlowGrade.CONCURRENCY, RateSource.constant(rule.count()), occupyTimeoutMs, false);
    }
    WarmUp warmUp = rule.warmUp();
    RateSource rate = warmUp == null
        ? RateSource.constant(rule.count())
        : new WarmUpTokens(rule.count(), warmUp.period(), warmUp.coldFactor());
    if (rule.behavior() == ControlBehavior.PACING) {
      return new PacingController(rate, rule.maxQueueingTime());
    }
    boolean wholeResource = rule.strategy() == FlowStrategy.DIRECT
        && rule.limitApp().equals(FlowRule.DEFAULT_APP);
    return new RejectController(FlowGrade.QPS, rate, occupyTimeoutMs, wholeResource);
  }
}
