package dev.guard.api.rule;

import dev.guard.api.internal.RuleLimits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every upper bound of {@link RuleLimits}, checked where the rule is built: a value beyond it is
 * refused naming the field and the value, and the bound itself is accepted.
 */
class RuleLimitsTest {

  /** About 292 years: more than {@code Duration.toNanos()} holds. */
  private static final Duration HUGE = Duration.parse("PT2562048H");
  private static final Duration DAY = RuleLimits.MAX_DURATION;
  private static final FlowRule QPS = FlowRule.qps("r", 10);
  private static final CircuitBreakerRule BREAKER = CircuitBreakerRule.errorRatio("r", 0.5);
  private static final PerValueRule PER_VALUE = PerValueRule.qps("r", 0, 5);
  private static final ClusterMode CLUSTER = ClusterMode.global("f");

  private static Arguments tooBig(String message, Supplier<?> build) {
    return Arguments.of(message, build);
  }

  static Stream<Arguments> beyondTheBounds() {
    return Stream.of(
        tooBig("threshold must be at most 1000000000, was 1.0E10", () -> QPS.withThreshold(1e10)),
        tooBig("maxQueueingTime must be at most PT24H, was PT2562048H",
            () -> QPS.withMaxQueueingTime(HUGE)),
        tooBig("warmUpPeriod must be at most PT24H, was PT2562048H", () -> FlowRule.WarmUp.of(HUGE)),
        tooBig("coldFactor must be at most 100, was 101",
            () -> new FlowRule.WarmUp(Duration.ofSeconds(1), 101)),
        tooBig("window must be at most PT24H, was PT2562048H",
            () -> CLUSTER.withWindow(10, HUGE)),
        tooBig("buckets must be at most 1000, was 2000",
            () -> CLUSTER.withWindow(2000, Duration.ofSeconds(2))),
        tooBig("leaseTime must be at most PT24H, was PT2562048H",
            () -> CLUSTER.withLeaseTime(HUGE)),
        tooBig("openFor must be at most PT24H, was PT2562048H", () -> BREAKER.withOpenFor(HUGE)),
        tooBig("window must be at most PT24H, was PT2562048H",
            () -> BREAKER.withStatWindow(HUGE, 1)),
        tooBig("buckets must be at most 1000, was 2000",
            () -> BREAKER.withStatWindow(Duration.ofSeconds(2), 2000)),
        tooBig("probeTimeout must be at most PT24H, was PT2562048H",
            () -> BREAKER.withProbes(1, HUGE)),
        tooBig("slowerThan must be at most PT24H, was PT2562048H",
            () -> CircuitBreakerRule.slowCallRatio("r", HUGE, 0.5)),
        tooBig("threshold must be at most 1000000000, was 1.0E10",
            () -> CircuitBreakerRule.errorCount("r", 1).withThreshold(1e10)),
        tooBig("maxInboundQps must be at most 1000000000, was 1.0E10",
            () -> SystemRule.of().withMaxInboundQps(1e10)),
        tooBig("maxAverageRt must be at most PT24H, was PT2562048H",
            () -> SystemRule.of().withMaxAverageRt(HUGE)),
        tooBig("maxSystemLoad must be at most 10000, was 10001.0",
            () -> SystemRule.of().withMaxSystemLoad(10_001)),
        tooBig("period must be whole milliseconds from 1 ms to 1 day, was PT2562048H",
            () -> PER_VALUE.withPeriod(HUGE)),
        tooBig("maxQueueingTime must be at most PT24H, was PT2562048H",
            () -> PER_VALUE.withPacing(HUGE)),
        tooBig("maxValues must be at most 10000000, was 10000001",
            () -> PER_VALUE.withMaxValues(10_000_001)),
        tooBig("argumentIndex must be from -255 to 255, was 256",
            () -> PerValueRule.qps("r", 256, 5)),
        tooBig("argumentIndex must be from -255 to 255, was -2147483648",
            () -> PerValueRule.qps("r", Integer.MIN_VALUE, 5)),
        tooBig("exceptions must hold finite numbers, was Infinity",
            () -> PER_VALUE.withException(Double.POSITIVE_INFINITY, 1)),
        tooBig("exceptions must hold finite numbers, was NaN",
            () -> PER_VALUE.withException(Float.NaN, 1)));
  }

  @ParameterizedTest
  @MethodSource("beyondTheBounds")
  void build_beyondABound_isRefusedNamingTheFieldAndTheValue(String message, Supplier<?> build) {
    assertThatThrownBy(build::get)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void build_atEveryBound_isAccepted() {
    assertThat(QPS.withThreshold(RuleLimits.MAX_COUNT).withMaxQueueingTime(DAY)
        .withWarmUp(DAY, RuleLimits.MAX_COLD_FACTOR).threshold()).isEqualTo(1e9);
    assertThat(CLUSTER.withWindow(RuleLimits.MAX_BUCKETS, DAY).withLeaseTime(DAY).buckets())
        .isEqualTo(1000);
    assertThat(CircuitBreakerRule.slowCallRatio("r", DAY, 0.5).withStatWindow(DAY,
        RuleLimits.MAX_BUCKETS).withOpenFor(DAY).withProbes(1, DAY).openFor()).isEqualTo(DAY);
    assertThat(CircuitBreakerRule.errorCount("r", 1).withThreshold(RuleLimits.MAX_COUNT).threshold())
        .isEqualTo(1e9);
    assertThat(SystemRule.of().withMaxInboundQps(RuleLimits.MAX_COUNT).withMaxAverageRt(DAY)
        .withMaxSystemLoad(RuleLimits.MAX_SYSTEM_LOAD).maxAverageRt()).isEqualTo(DAY);
    assertThat(PerValueRule.qps("r", -RuleLimits.MAX_ARGUMENT_INDEX, 5).withPeriod(DAY)
        .withPacing(DAY).withMaxValues(RuleLimits.MAX_VALUES).maxValues()).isEqualTo(10_000_000);
  }

  @Test
  void defaultMaxValues_ofAnyPeriod_neverOverflows() {
    assertThat(PerValueRule.defaultMaxValues(HUGE)).isEqualTo(PerValueRule.MAX_DEFAULT_VALUES);
    assertThat(PerValueRule.defaultMaxValues(Duration.ofMillis(1500))).isEqualTo(8000);
    assertThat(PerValueRule.defaultMaxValues(Duration.ofSeconds(-5))).isEqualTo(4000);
  }
}
