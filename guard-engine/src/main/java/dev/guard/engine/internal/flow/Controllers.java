package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowRule;

/** Chooses the traffic-shaping controller of a flow rule (docs/SHAPING.md): a rate source (the count, or a warm-up rate) and an
 * admission style (fast reject or pacing). */
final class Controllers {

  private Controllers() {}

  static TrafficShapingController of(FlowRule rule, long occupyTimeoutMs) {
    if (rule.metric() == FlowRule.Metric.CONCURRENCY) {
      return new RefuseController(
          FlowRule.Metric.CONCURRENCY, RateSource.constant(rule.threshold()), occupyTimeoutMs, false);
    }
    FlowRule.WarmUp warmUp = rule.warmUp();
    RateSource rate = warmUp == null
        ? RateSource.constant(rule.threshold())
        : new WarmUpTokens(rule.threshold(), warmUp.period(), warmUp.coldFactor());
    if (rule.shaping() == FlowRule.Shaping.PACING) {
      return new PacingController(rate, rule.maxQueueingTime());
    }
    boolean wholeResource = rule.strategy() == FlowRule.Strategy.DIRECT
        && rule.origin().equals(FlowRule.EVERY_ORIGIN);
    return new RefuseController(FlowRule.Metric.QPS, rate, occupyTimeoutMs, wholeResource);
  }
}
