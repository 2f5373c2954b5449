package dev.guard.testkit.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The adaptive limit against the simulated dependency (docs/TESTING.md, "A simulated
 * dependency"): a server of capacity 50 and 20 ms service time under 4000 calls/s, 1.6 times what
 * it can serve; at 20 s it loses half its capacity, at 40 s the load drops to 800 calls/s.
 */
class AdaptiveSimulationTest {

  static final int CAPACITY = 50;
  static final Duration HALVED_AT = Duration.ofSeconds(20);
  static final Duration DROPPED_AT = Duration.ofSeconds(40);
  static final Duration END = Duration.ofSeconds(60);

  /** The scenario every limiter runs. */
  static SimulatedDependency dependency() {
    return SimulatedDependency.builder()
        .capacity(CAPACITY).serviceTime(Duration.ofMillis(20)).queue(200)
        .load(4000)
        .capacityFrom(HALVED_AT, CAPACITY / 2)
        .loadFrom(DROPPED_AT, 800)
        .build();
  }

  static SimulatedDependency.Run runGuard(AdaptiveConcurrencyRule rule) {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.resource(rule.resource()).declare(List.of(rule));
    return dependency().run(clock, SimulatedDependency.Limiter.of(engine, rule.resource()), END);
  }

  private final SimulatedDependency.Run gradient =
      runGuard(AdaptiveConcurrencyRule.of("inventory"));

  @Test
  void steadyOverload_limitSettlesWithinTenPercentOfCapacity_withinThreeSeconds() {
    assertThat(gradient.settledAt(CAPACITY, 0.10, Duration.ZERO, HALVED_AT))
        .hasValueSatisfying(at -> assertThat(at).isLessThanOrEqualTo(Duration.ofSeconds(3)));
  }

  @Test
  void steadyOverload_admittedLatencyStaysWithinAQuarterOfUnloadedLatency() {
    double latency = gradient.meanLatencyMs(Duration.ofSeconds(3), HALVED_AT);

    assertThat(latency).isBetween(20.0, 1.25 * gradient.unloadedLatencyMs());
    assertThat(gradient.failed(Duration.ZERO, END)).isZero();
  }

  @Test
  void capacityHalves_limitFollowsWithinOneSecond() {
    assertThat(gradient.settledAt(CAPACITY / 2, 0.10, HALVED_AT, DROPPED_AT))
        .hasValueSatisfying(at -> assertThat(at).isLessThanOrEqualTo(Duration.ofSeconds(1)));
    assertThat(gradient.meanLatencyMs(HALVED_AT.plusSeconds(1), DROPPED_AT))
        .isLessThanOrEqualTo(1.25 * gradient.unloadedLatencyMs());
  }

  @Test
  void loadDrops_limitStaysPut_withNothingOscillating() {
    Duration calm = DROPPED_AT.plusSeconds(1);

    assertThat(gradient.reversals(calm, END)).isZero();
    assertThat(gradient.maxLimit(calm, END)).isEqualTo(gradient.minLimit(calm, END));
    assertThat(gradient.meanLatencyMs(calm, END)).isEqualTo(20.0);
    // re-measuring the baseline holds three quarters of the limit: more than this load needs
    assertThat(gradient.samples().stream().filter(sample -> sample.atMs() > calm.toMillis())
        .mapToLong(SimulatedDependency.Sample::refused).sum()).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {12, 20, 29})
  void dependencySlowerForGood_limitFindsItsCapacityAgain_wheneverTheSlowdownComes(int atSecond) {
    Duration slowerAt = Duration.ofSeconds(atSecond);
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.resource("inventory").declare(List.of(AdaptiveConcurrencyRule.of("inventory")));
    SimulatedDependency.Run slower = SimulatedDependency.builder()
        .capacity(CAPACITY).serviceTime(Duration.ofMillis(20)).queue(200)
        .load(4000)
        .serviceTimeFrom(slowerAt, Duration.ofMillis(40))
        .build()
        .run(clock, SimulatedDependency.Limiter.of(engine, "inventory"), END);

    // the stale baseline makes the slower calls look like queueing: the limit collapses, and
    // once it stops falling it re-measures the baseline, whatever the periodic schedule says;
    // then it climbs back
    assertThat(slower.settledAt(CAPACITY, 0.10, slowerAt, END))
        .hasValueSatisfying(at -> assertThat(at).isLessThanOrEqualTo(Duration.ofSeconds(8)));
    assertThat(slower.meanLatencyMs(slowerAt.plusSeconds(8), END)).isLessThanOrEqualTo(1.25 * 40);
    assertThat(slower.failed(Duration.ZERO, END)).isZero();
  }

  @Test
  void aimdWithASlowBound_holdsLatencyNearTheBound_andFollowsTheHalving() {
    SimulatedDependency.Run aimd = runGuard(AdaptiveConcurrencyRule.of("inventory")
        .withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD)
        .withSlowerThan(Duration.ofMillis(30)));

    assertThat(aimd.meanLatencyMs(Duration.ofSeconds(10), HALVED_AT)).isLessThanOrEqualTo(32.0);
    assertThat(aimd.maxLimit(HALVED_AT.plusSeconds(2), DROPPED_AT))
        .isLessThanOrEqualTo(CAPACITY * 30 / 20 / 2 + 2);
    assertThat(aimd.reversals(DROPPED_AT.plusSeconds(1), END)).isZero();
  }
}
