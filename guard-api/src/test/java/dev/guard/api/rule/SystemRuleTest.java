package dev.guard.api.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SystemRuleTest {

  @Test
  void of_setsNoThreshold() {
    assertThat(SystemRule.of().limitsAnything()).isFalse();
    assertThat(SystemRule.of()).hasToString("SystemRule[]");
  }

  @Test
  void anyThreshold_limits() {
    assertThat(SystemRule.of().withMaxInboundQps(0).limitsAnything()).isTrue();
    assertThat(SystemRule.of().withMaxConcurrency(3).limitsAnything()).isTrue();
    assertThat(SystemRule.of().withMaxAverageRt(Duration.ZERO).limitsAnything()).isTrue();
    assertThat(SystemRule.of().withMaxSystemLoad(1.5).limitsAnything()).isTrue();
    assertThat(SystemRule.of().withMaxCpuUsage(1).limitsAnything()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(doubles = {1.0001, 2.0, 2.7, -0.1, Double.NaN, Double.POSITIVE_INFINITY})
  void maxCpuUsage_outsideZeroToOne_isRefusedWithFieldAndValue(double usage) {
    assertThatThrownBy(() -> SystemRule.of().withMaxCpuUsage(usage))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxCpuUsage must be in [0, 1], was " + usage);
  }

  @ParameterizedTest
  @ValueSource(doubles = {-0.9, -1, Double.NaN, Double.POSITIVE_INFINITY})
  void maxSystemLoad_negativeOrNotFinite_isRefused(double load) {
    assertThatThrownBy(() -> SystemRule.of().withMaxSystemLoad(load))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxSystemLoad must be finite and >= 0, was " + load);
  }

  @Test
  void otherThresholds_invalid_areRefusedWithFieldAndValue() {
    assertThatThrownBy(() -> SystemRule.of().withMaxInboundQps(-1))
        .hasMessage("maxInboundQps must be finite and >= 0, was -1.0");
    assertThatThrownBy(() -> SystemRule.of().withMaxConcurrency(-1))
        .hasMessage("maxConcurrency must be >= 0, was -1");
    assertThatThrownBy(() -> SystemRule.of().withMaxAverageRt(Duration.ofMillis(-5)))
        .hasMessage("maxAverageRt must not be negative, was PT-0.005S");
  }

  @Test
  void merge_takesTheSmallestValueOfEveryThreshold() {
    SystemRule merged = SystemRule.merge(List.of(
        SystemRule.of().withMaxSystemLoad(2.3).withMaxInboundQps(100),
        SystemRule.of().withMaxSystemLoad(1.2).withMaxConcurrency(8),
        SystemRule.of().withMaxSystemLoad(3.4).withMaxInboundQps(50)
            .withMaxAverageRt(Duration.ofMillis(200))));

    assertThat(merged).isEqualTo(new SystemRule(50.0, 8, Duration.ofMillis(200), 1.2, null));
  }

  @Test
  void merge_ofNothing_limitsNothing() {
    assertThat(SystemRule.merge(List.of())).isEqualTo(SystemRule.of());
  }

  @Test
  void threshold_readsEachLimitAsANumber() {
    SystemRule rule = new SystemRule(10.0, 4, Duration.ofMillis(250), 0.7, 0.9);

    assertThat(rule.threshold(SystemRule.Limit.QPS)).isEqualTo(10.0);
    assertThat(rule.threshold(SystemRule.Limit.CONCURRENCY)).isEqualTo(4.0);
    assertThat(rule.threshold(SystemRule.Limit.RT)).isEqualTo(250.0);
    assertThat(rule.threshold(SystemRule.Limit.LOAD)).isEqualTo(0.7);
    assertThat(rule.threshold(SystemRule.Limit.CPU)).isEqualTo(0.9);
    assertThat(SystemRule.of().threshold(SystemRule.Limit.CPU)).isNull();
  }

  @Test
  void withMaxInboundQps_wholeNumber_isTheSameThreshold() {
    assertThat(SystemRule.of().withMaxInboundQps(5000))
        .isEqualTo(SystemRule.of().withMaxInboundQps(5000.0));
  }

  @Test
  void toString_namesOnlyTheThresholdsSet() {
    assertThat(SystemRule.of().withMaxInboundQps(5000).withMaxCpuUsage(0.8))
        .hasToString("SystemRule[maxInboundQps=5000.0, maxCpuUsage=0.8]");
  }

  @Test
  void resource_isTheInboundTraffic() {
    assertThat(SystemRule.of().resource()).isEqualTo(SystemRule.INBOUND);
  }
}
