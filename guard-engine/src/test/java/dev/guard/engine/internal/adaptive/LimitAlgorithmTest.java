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

  /** Closes {@code n} used windows without queueing at {@code rtMs}; returns the last limit. */
  private static int windows(LimitAlgorithm algorithm, int limit, int n, int rtMs) {
    int now = limit;
    for (int i = 0; i < n; i++) {
      now = algorithm.next(now, now, now, 0, (long) now * rtMs);
    }
    return now;
  }

  @Test
  void gradient_everyHundredWindows_remeasuresItsBaselineAtThreeQuartersOfTheLimit() {
    LimitAlgorithm gradient = LimitAlgorithm.of(rule);
    int limit = windows(gradient, 40, LimitAlgorithm.REMEASURE_EVERY - 1, 10);
    assertThat(limit).isEqualTo(100);
    assertThat(gradient.remeasuring()).isFalse();

    int drain = gradient.next(100, 100, 100, 0, 100 * 10);
    assertThat(drain).isEqualTo(75);
    assertThat(gradient.remeasuring()).isTrue();
    int measure = gradient.next(75, 75, 75, 0, 75 * 30); // the calls of the drain window
    assertThat(measure).isEqualTo(75);
    assertThat(gradient.baselineRtMs()).isEqualTo(10.0);

    assertThat(gradient.next(75, 75, 75, 0, 75 * 14)).isEqualTo(100);
    assertThat(gradient.remeasuring()).isFalse();
    assertThat(gradient.baselineRtMs()).isEqualTo(14.0); // may rise: what the dependency is now
  }

  @Test
  void gradient_dependencySlowerForGood_remeasuresAsSoonAsTheCollapsedLimitStopsFalling() {
    LimitAlgorithm gradient = LimitAlgorithm.of(rule);
    int limit = windows(gradient, 40, 10, 10); // baseline 10 ms, limit grown by 5 % a window
    int grown = limit;

    // 20 ms for good looks like congestion: the limit falls until it can fall no more
    int windows = 0;
    int lowest = limit;
    while (!gradient.remeasuring()) {
      lowest = Math.min(lowest, limit);
      limit = gradient.next(limit, limit, limit, 0, (long) limit * 20);
      windows++;
    }
    assertThat(lowest).isLessThanOrEqualTo(grown / 4);
    assertThat(windows).isLessThan(LimitAlgorithm.REMEASURE_EVERY / 4);

    limit = windows(gradient, limit, 2, 20); // the re-measurement: 20 ms at low concurrency
    assertThat(gradient.baselineRtMs()).isEqualTo(20.0);
    assertThat(windows(gradient, limit, 60, 20)).isEqualTo(100); // +1, then +5 %, per window
  }

  @Test
  void gradient_limitThatFellToHalf_waitsForTheHundredthWindow() {
    LimitAlgorithm gradient = LimitAlgorithm.of(rule);
    int limit = windows(gradient, 40, 10, 10); // baseline 10 ms, limit grown by 5 % a window
    // a dependency of capacity 32: the limit falls to about half and settles there
    for (int i = 0; i < 40; i++) {
      long rt = 10L * Math.max(limit, 32) / 32;
      limit = gradient.next(limit, limit, limit, 0, limit * rt);
      assertThat(gradient.remeasuring()).isFalse();
    }
    assertThat(limit).isBetween(30, 36);
  }

  @Test
  void aimd_neverRemeasures() {
    LimitAlgorithm aimd = LimitAlgorithm.of(rule.withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD));

    windows(aimd, 40, 3 * LimitAlgorithm.REMEASURE_EVERY, 10);

    assertThat(aimd.remeasuring()).isFalse();
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
