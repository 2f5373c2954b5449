package dev.guard.engine.internal.flow;

import dev.guard.api.rule.Shaping;
import dev.guard.api.rule.FlowMetric;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.FlowStrategy;
import dev.guard.api.rule.WarmUp;

/** Chooses the traffic-shaping controller of a flow rule (docs/SHAPING.md): a rate source (the count, or a warm-up rate) and an
 * admission style (fast reject or pacing). */
final class Controllers {

  private Controllers() {}

  static TrafficShapingController of(FlowRule rule, long occupyTimeoutMs) {
    if (rule.metric() == FlowMetric.CONCURRENCY) {
      return new RejectController(
          FlowMetric.CONCURRENCY, RateSource.constant(rule.threshold()), occupyTimeoutMs, false);
    }
    WarmUp warmUp = rule.warmUp();
    RateSource rate = warmUp == null
        ? RateSource.constant(rule.threshold())
        : new WarmUpTokens(rule.threshold(), warmUp.period(), warmUp.coldFactor());
    if (rule.shaping() == Shaping.PACING) {
      return new PacingController(rate, rule.maxQueueingTime());
    }
    boolean wholeResource = rule.strategy() == FlowStrategy.DIRECT
        && rule.origin().equals(FlowRule.EVERY_ORIGIN);
    return new RejectController(FlowMetric.QPS, rate, occupyTimeoutMs, wholeResource);
  }
}
