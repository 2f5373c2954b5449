package dev.guard.api.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PerValueRuleTest {

  private final PerValueRule base = PerValueRule.qps("r", 0, 5);

  @Test
  void qps_defaults_areATokenBucketPerSecondWithoutBurst() {
    assertThat(base.metric()).isEqualTo(FlowRule.Metric.QPS);
    assertThat(base.burst()).isZero();
    assertThat(base.period()).isEqualTo(Duration.ofSeconds(1));
    assertThat(base.shaping()).isEqualTo(FlowRule.Shaping.REFUSE);
    assertThat(base.maxQueueingTime()).isZero();
    assertThat(base.exceptions()).isEmpty();
    assertThat(base.valueType()).isEqualTo(Object.class);
    assertThat(base.maxValues()).isEqualTo(4000);
  }

  @Test
  void defaultMaxValues_growsWithThePeriodUpToTheCap() {
    assertThat(PerValueRule.defaultMaxValues(Duration.ofMillis(100))).isEqualTo(4000);
    assertThat(PerValueRule.defaultMaxValues(Duration.ofMillis(1500))).isEqualTo(8000);
    assertThat(PerValueRule.defaultMaxValues(Duration.ofSeconds(60))).isEqualTo(200_000);
  }

  @Test
  void withPeriod_defaultBound_followsThePeriod_explicitBoundStays() {
    assertThat(base.withPeriod(Duration.ofSeconds(10)).maxValues()).isEqualTo(40_000);
    assertThat(base.withMaxValues(100).withPeriod(Duration.ofSeconds(10)).maxValues())
        .isEqualTo(100);
  }

  @Test
  void negativeIndex_isKept() {
    assertThat(PerValueRule.qps("r", -1, 1).argumentIndex()).isEqualTo(-1);
  }

  @Test
  void count_negative_isRejected() {
    assertThatThrownBy(() -> base.withThreshold(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threshold must be >= 0, was -1");
  }

  @Test
  void countPlusBurst_overTheTokenRange_isRejected() {
    assertThatThrownBy(() -> base.withThreshold(PerValueRule.MAX_TOKENS).withBurst(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threshold plus burst 1 must be at most 16777215, was 16777215");
  }

  @Test
  void burst_withPacingOrConcurrency_isRejected() {
    assertThatThrownBy(() -> base.withPacing(Duration.ZERO).withBurst(3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("burst must be 0 unless the rule is a QPS token bucket (metric QPS, shaping "
            + "REFUSE), was 3");
    assertThatThrownBy(() -> PerValueRule.concurrency("r", 0, 2).withBurst(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("burst must be 0");
  }

  @Test
  void concurrency_withPacingOrAPeriod_isRejected() {
    assertThatThrownBy(() -> PerValueRule.concurrency("r", 0, 2).withPacing(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shaping must be REFUSE for metric CONCURRENCY, was PACING");
    assertThatThrownBy(() -> PerValueRule.concurrency("r", 0, 2).withPeriod(Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("period must be the default PT1S for metric CONCURRENCY (it has no period), "
            + "was PT5S");
  }

  @Test
  void maxQueueingTime_withoutPacing_isRejected() {
    assertThatThrownBy(() -> new PerValueRule("r", 0, FlowRule.Metric.QPS, 5, 0, Duration.ofSeconds(1),
        FlowRule.Shaping.REFUSE, Duration.ofMillis(5), Map.of(), Object.class, 10, List.of(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxQueueingTime must be zero unless shaping is PACING, was PT0.005S");
  }

  @Test
  void period_fractionalMillisOrOverADay_isRejected() {
    assertThatThrownBy(() -> base.withPeriod(Duration.ofNanos(1_500_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("period must be whole milliseconds from 1 ms to 1 day, was PT0.0015S");
    assertThatThrownBy(() -> base.withPeriod(Duration.ofDays(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("period must be whole milliseconds from 1 ms to 1 day, was PT48H");
    assertThatThrownBy(() -> base.withPeriod(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("period must be positive, was PT0S");
  }

  @Test
  void maxValues_belowTwo_isRejected() {
    assertThatThrownBy(() -> base.withMaxValues(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxValues must be >= 2, was 1");
  }

  @Test
  void exception_ofAnotherTypeThanTheValues_isRejectedAsNeverMatching() {
    PerValueRule longs = base.withValueType(Long.class);

    assertThat(longs.withException(7L, 100).thresholdOf(7L)).isEqualTo(100);
    assertThatThrownBy(() -> longs.withException(7, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("exceptions must hold values of valueType java.lang.Long: a value matches "
            + "only arguments equal to it, of its own runtime type, was 7 (java.lang.Integer)");
  }

  @Test
  void exception_negativeThreshold_isRejected() {
    assertThatThrownBy(() -> base.withException("a", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("exceptions[a] must be >= 0, was -1");
  }

  @Test
  void thresholdOf_matchesByEqualsAndRuntimeType() {
    PerValueRule rule = base.withException("vip", 50).withException(1, 0);

    assertThat(rule.thresholdOf("vip")).isEqualTo(50);
    assertThat(rule.thresholdOf(1)).isZero();
    assertThat(rule.thresholdOf(1L)).isEqualTo(5);
    assertThat(rule.thresholdOf("x")).isEqualTo(5);
  }

  @Test
  void exceptions_areCopied_soTheRuleStaysImmutable() {
    Map<Object, Integer> items = new HashMap<>();
    items.put("a", 1);
    PerValueRule rule = new PerValueRule("r", 0, FlowRule.Metric.QPS, 5, 0, Duration.ofSeconds(1),
        FlowRule.Shaping.REFUSE, Duration.ZERO, items, Object.class, 10, List.of(), null);
    items.put("b", 2);

    assertThat(rule.exceptions()).containsOnlyKeys("a");
    assertThat(rule).isEqualTo(base.withMaxValues(10).withException("a", 1));
  }
}
