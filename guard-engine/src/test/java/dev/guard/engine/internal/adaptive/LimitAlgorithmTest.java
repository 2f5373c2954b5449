package dev.guard.engine.internal.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The formulas of docs/BEHAVIOUR.md, "Adaptive concurrency", one window at a time. */
class LimitAlgorithmTest {

  private final AdaptiveConcurrencyRule rule =
      AdaptiveConcurrencyRule.of("R").withLimits(40, 1, 100);

  @Test
  void gradient_noQueueing_usedWindow_addsFivePercent() {
    LimitAlgorithm gradient = LimitAlgorithm.of(rule);

    assertThat(gradient.next(40, 40, 40, 0, 40 * 10)).isEqualTo(42); // 40 + 2
    assertThat(gradient.baselineRtMs()).isEqualTo(10.0);
  }

  @Test
  void gradient_doubledLatency_approachesTheTargetHalfway() {
    LimitAlgorithm gradient = LimitAlgorithm.of(rule);
    gradient.next(40, 40, 40, 0, 400);       // 42, baseline 10 ms

    int next = gradient.next(42, 42, 42, 0, 42 * 20);

    assertThat(next).isEqualTo(33);           // 42 + ((42 × 0.5 + 2.1) − 42) / 2 = 32.55
    assertThat(gradient.lastRtMs()).isEqualTo(20.0);
  }

  @Test
  void gradient_failures_lowerTheGradientToTheSuccessRatio() {
    LimitAlgorithm gradient = LimitAlgorithm.of(rule);
    gradient.next(40, 40, 40, 0, 400);       // 42, baseline 10 ms

    int next = gradient.next(42, 42, 30, 12, 300); // no queueing, but 12 of 42 failed: g = 0.714

    assertThat(next).isEqualTo(37);           // 42 + ((42 × 0.714 + 2.1) − 42) / 2 = 37.05
  }

  @Test
  void gradient_windowWithoutCalls_keepsTheLimit() {
    LimitAlgorithm gradient = LimitAlgorithm.of(rule);

    assertThat(gradient.next(40, 0, 0, 0, 0)).isEqualTo(40);
  }

  @Test
  void aimd_slowAverage_countsAsOverload() {
    LimitAlgorithm aimd = LimitAlgorithm.of(rule
        .withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD)
        .withSlowerThan(Duration.ofMillis(15)));

    assertThat(aimd.next(40, 40, 40, 0, 400)).isEqualTo(41);
    assertThat(aimd.next(41, 41, 41, 0, 41 * 16)).isEqualTo(37); // 41 × 0.9 = 36.9
    assertThat(aimd.next(37, 10, 10, 0, 100)).isEqualTo(37);     // used less than half
  }
}
