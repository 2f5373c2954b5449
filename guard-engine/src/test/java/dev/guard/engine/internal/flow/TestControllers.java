package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowMetric;
import java.time.Duration;

/** Builds the controllers of the four QPS shapes from plain numbers, as the tests need them. */
final class TestControllers {

  private TestControllers() {}

  static RejectController reject(double count, boolean budgeted) {
    return new RejectController(FlowMetric.QPS, RateSource.constant(count), 500, budgeted);
  }

  static RejectController warmUp(double count, Duration period, int coldFactor) {
    return warmUp(count, period, coldFactor, false);
  }

  static RejectController warmUp(double count, Duration period, int coldFactor, boolean budgeted) {
    return new RejectController(
        FlowMetric.QPS, new WarmUpTokens(count, period, coldFactor), 500, budgeted);
  }

  static PacingController pacing(double count, Duration maxQueueing) {
    return new PacingController(RateSource.constant(count), maxQueueing);
  }

  static PacingController warmUpPacing(
      double count, Duration period, int coldFactor, Duration maxQueueing) {
    return new PacingController(new WarmUpTokens(count, period, coldFactor), maxQueueing);
  }

  static WarmUpTokens tokensOf(TrafficShapingController controller) {
    RateSource rate = controller instanceof RejectController
        ? ((RejectController) controller).rate()
        : ((PacingController) controller).rate();
    return (WarmUpTokens) rate;
  }
}
