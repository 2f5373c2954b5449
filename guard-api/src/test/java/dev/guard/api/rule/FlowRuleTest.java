package dev.guard.api.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FlowRuleTest {

  private final FlowRule base = FlowRule.qps("r", 10);

  @Test
  void qps_defaults_matchTheReferenceModel() {
    assertThat(base.metric()).isEqualTo(FlowRule.Metric.QPS);
    assertThat(base.origin()).isEqualTo("default");
    assertThat(base.strategy()).isEqualTo(FlowRule.Strategy.DIRECT);
    assertThat(base.reference()).isNull();
    assertThat(base.shaping()).isEqualTo(FlowRule.Shaping.REFUSE);
    assertThat(base.warmUp()).isNull();
    assertThat(base.maxQueueingTime()).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void resource_blankOrNull_isRejected() {
    assertThatThrownBy(() -> FlowRule.qps(" ", 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("resource must not be blank, was ' '");
    assertThatThrownBy(() -> FlowRule.qps(null, 1))
        .isInstanceOf(NullPointerException.class).hasMessage("resource");
  }

  @ParameterizedTest
  @ValueSource(doubles = {-1, -0.001, Double.NaN, Double.POSITIVE_INFINITY})
  void count_negativeOrNotFinite_isRejected(double count) {
    assertThatThrownBy(() -> base.withThreshold(count))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threshold must be finite and >= 0, was " + count);
  }

  @Test
  void fromOrigin_blank_normalisesToDefault_andIsTrimmed() {
    assertThat(base.withOrigin("  ").origin()).isEqualTo("default");
    assertThat(base.withOrigin(" appA ").origin()).isEqualTo("appA");
  }

  @Test
  void strategy_relateOrChainWithoutReference_isRejected() {
    assertThatThrownBy(() -> base.withStrategy(FlowRule.Strategy.RELATED, null))
        .isInstanceOf(NullPointerException.class).hasMessage("reference");
    assertThatThrownBy(() -> base.withStrategy(FlowRule.Strategy.ENTRANCE, ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reference");
    assertThatThrownBy(() -> base.withStrategy(FlowRule.Strategy.DIRECT, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reference must be null for strategy DIRECT, was x");
  }

  @Test
  void shaping_invalidDurationsOrColdFactor_areRejected() {
    assertThatThrownBy(() -> base.withWarmUp(Duration.ZERO, 3))
        .hasMessage("warmUpPeriod must be positive, was PT0S");
    assertThatThrownBy(() -> base.withWarmUp(Duration.ofSeconds(1), 1))
        .hasMessage("coldFactor must be > 1, was 1");
    assertThatThrownBy(() -> base.withMaxQueueingTime(Duration.ofMillis(-1)))
        .hasMessage("maxQueueingTime must not be negative, was PT-0.001S");
    assertThat(base.withMaxQueueingTime(Duration.ZERO).maxQueueingTime()).isZero();
  }

  @Test
  void concurrency_withShaping_isRejected() {
    assertThatThrownBy(() -> FlowRule.concurrency("r", 2).withShaping(FlowRule.Shaping.PACING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("shaping must be REFUSE for metric CONCURRENCY");
    assertThatThrownBy(() -> FlowRule.concurrency("r", 2).withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("warmUp must be null for metric CONCURRENCY");
  }

  @Test
  void warmUp_defaultColdFactorIsThree_andInvalidValuesAreNamed() {
    assertThat(FlowRule.WarmUp.of(Duration.ofSeconds(10))).isEqualTo(new FlowRule.WarmUp(Duration.ofSeconds(10), 3));
    assertThatThrownBy(() -> FlowRule.WarmUp.of(Duration.ZERO)).hasMessage("warmUpPeriod must be positive, was PT0S");
    assertThatThrownBy(() -> new FlowRule.WarmUp(Duration.ofSeconds(1), 1)).hasMessage("coldFactor must be > 1, was 1");
  }

  @Test
  void nullEnums_areRejectedByName() {
    assertThatThrownBy(() -> base.withMetric(null)).hasMessage("metric");
    assertThatThrownBy(() -> base.withShaping(null)).hasMessage("shaping");
    assertThatThrownBy(() -> base.withStrategy(null, null)).hasMessage("strategy");
  }

  @Test
  void equalRules_areEqualValues() {
    assertThat(FlowRule.qps("r", 10)).isEqualTo(base).hasSameHashCodeAs(base);
    assertThat(base.withThreshold(11)).isNotEqualTo(base);
  }
}
