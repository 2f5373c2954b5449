package dev.guard.api.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CircuitBreakerRuleTest {

  private final CircuitBreakerRule errors = CircuitBreakerRule.errorRatio("r", 0.5);

  @Test
  void factories_defaults_slidingWindowOfTenBucketsAndOneProbe() {
    assertThat(errors.strategy()).isEqualTo(CircuitBreakerRule.Strategy.ERROR_RATIO);
    assertThat(errors.threshold()).isEqualTo(0.5);
    assertThat(errors.slowerThan()).isNull();
    assertThat(errors.minCalls()).isEqualTo(5);
    assertThat(errors.window()).isEqualTo(Duration.ofSeconds(1));
    assertThat(errors.buckets()).isEqualTo(10);
    assertThat(errors.openFor()).isEqualTo(Duration.ofSeconds(10));
    assertThat(errors.probes()).isEqualTo(1);
    assertThat(errors.probeTimeout()).isNull();
    assertThat(errors.effectiveProbeTimeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void slowCallRatio_keepsTheSlowCallThreshold() {
    CircuitBreakerRule slow = CircuitBreakerRule.slowCallRatio("r", Duration.ofMillis(300), 0.5);

    assertThat(slow.strategy()).isEqualTo(CircuitBreakerRule.Strategy.SLOW_CALL_RATIO);
    assertThat(slow.slowerThan()).isEqualTo(Duration.ofMillis(300));
    assertThat(slow.withSlowerThan(Duration.ZERO).slowerThan()).isZero();
  }

  @Test
  void errorCount_keepsTheCount() {
    assertThat(CircuitBreakerRule.errorCount("r", 20).threshold()).isEqualTo(20.0);
  }

  @Test
  void probeTimeout_whenSet_winsOverOpenFor() {
    CircuitBreakerRule rule = errors.withProbes(3, Duration.ofMillis(1500));

    assertThat(rule.probes()).isEqualTo(3);
    assertThat(rule.effectiveProbeTimeout()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void withers_returnEqualRulesForEqualSettings() {
    assertThat(errors.withMinCalls(7).withOpenFor(Duration.ofSeconds(2)))
        .isEqualTo(errors.withOpenFor(Duration.ofSeconds(2)).withMinCalls(7))
        .isNotEqualTo(errors);
  }

  @ParameterizedTest
  @ValueSource(doubles = {1.0001, 2})
  void threshold_ratioAboveOne_isRejected(double ratio) {
    assertThatThrownBy(() -> errors.withThreshold(ratio))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threshold must be a ratio in [0, 1] for strategy ERROR_RATIO, was " + ratio);
  }

  @ParameterizedTest
  @ValueSource(doubles = {-1, Double.NaN, Double.POSITIVE_INFINITY})
  void threshold_negativeOrNotFinite_isRejected(double value) {
    assertThatThrownBy(() -> CircuitBreakerRule.errorCount("r", 1).withThreshold(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threshold must be finite and >= 0, was " + value);
  }

  @Test
  void threshold_errorCountAboveOne_isAccepted() {
    assertThat(CircuitBreakerRule.errorCount("r", 1).withThreshold(50).threshold()).isEqualTo(50);
  }

  @Test
  void errorCount_negative_isRejected() {
    assertThatThrownBy(() -> CircuitBreakerRule.errorCount("r", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threshold must be >= 0, was -1");
  }

  @Test
  void slowCallThreshold_missingNegativeOrMisplaced_isRejected() {
    assertThatThrownBy(() -> CircuitBreakerRule.slowCallRatio("r", null, 0.5))
        .isInstanceOf(NullPointerException.class).hasMessage("slowerThan");
    assertThatThrownBy(() -> CircuitBreakerRule.slowCallRatio("r", Duration.ofMillis(-1), 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slowerThan must not be negative, was PT-0.001S");
    assertThatThrownBy(() -> errors.withSlowerThan(Duration.ofMillis(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slowerThan must be null for strategy ERROR_RATIO, was PT0.005S");
  }

  @Test
  void minCallsAndProbes_notPositive_areRejected() {
    assertThatThrownBy(() -> errors.withMinCalls(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("minCalls must be > 0, was 0");
    assertThatThrownBy(() -> errors.withProbes(0, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("probes must be > 0, was 0");
  }

  @Test
  void durations_zeroOrFractionalMillis_areRejected() {
    assertThatThrownBy(() -> errors.withOpenFor(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("openFor must be positive, was PT0S");
    assertThatThrownBy(() -> errors.withOpenFor(Duration.ofNanos(1_500_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("openFor must be whole milliseconds, was PT0.0015S");
    assertThatThrownBy(() -> errors.withProbes(1, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("probeTimeout must be positive, was PT-1S");
    assertThatThrownBy(() -> errors.withStatWindow(Duration.ZERO, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window must be positive, was PT0S");
  }

  @Test
  void windowBuckets_notDividingTheWindow_isRejected() {
    assertThatThrownBy(() -> errors.withStatWindow(Duration.ofMillis(1005), 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("buckets must divide window (1005 ms) into whole milliseconds, was 10");
    assertThatThrownBy(() -> errors.withStatWindow(Duration.ofSeconds(1), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("buckets must be > 0, was 0");
    assertThat(errors.withStatWindow(Duration.ofMillis(1005), 1).buckets()).isEqualTo(1);
  }

  @Test
  void resource_blank_isRejected() {
    assertThatThrownBy(() -> CircuitBreakerRule.errorRatio(" ", 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resource must not be blank, was ' '");
  }
}
