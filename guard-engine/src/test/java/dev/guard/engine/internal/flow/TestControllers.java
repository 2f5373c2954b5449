package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowRule;
import java.time.Duration;

/** Builds the controllers of the four QPS shapes from plain numbers, as the tests need them. */
final class TestControllers {

  private TestControllers() {}

  static RefuseController reject(double count, boolean budgeted) {
    return new RefuseController(FlowRule.Metric.QPS, RateSource.constant(count), 500, budgeted);
  }

  static RefuseController warmUp(double count, Duration period, int coldFactor) {
    return warmUp(count, period, coldFactor, false);
  }

  static RefuseController warmUp(double count, Duration period, int coldFactor, boolean budgeted) {
    return new RefuseController(
        FlowRule.Metric.QPS, new WarmUpTokens(count, period, coldFactor), 500, budgeted);
  }

  static PacingController pacing(double count, Duration maxQueueing) {
    return new PacingController(RateSource.constant(count), maxQueueing);
  }

  static PacingController warmUpPacing(
      double count, Duration period, int coldFactor, Duration maxQueueing) {
    return new PacingController(new WarmUpTokens(count, period, coldFactor), maxQueueing);
  }

  static WarmUpTokens tokensOf(TrafficShapingController controller) {
    RateSource rate = controller instanceof RefuseController
        ? ((RefuseController) controller).rate()
        : ((PacingController) controller).rate();
    return (WarmUpTokens) rate;
  }
}
