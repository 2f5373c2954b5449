package dev.guard.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every scenario takes the path it claims: "admits" scenarios admit 10,000 consecutive calls and
 * refusal scenarios refuse at least 99 %. The states' own {@code @Setup} checks run as well, since
 * those are what guard a real benchmark run.
 */
class SanityTest {
  private static final int CALLS = Sanity.CALLS;

  private static void assertAdmitsAll(Supplier<Object> call) {
    assertThat(Sanity.refused(call, CALLS)).isZero();
  }

  private static void assertRefusesMost(Supplier<Object> call) {
    assertThat(Sanity.refused(call, CALLS)).isGreaterThanOrEqualTo(CALLS * 99 / 100);
  }

  @Test
  void guard_everyScenario_takesTheClaimedPath() {
    var noRules = new NoRulesBenchmark.GuardState();
    var qps = new QpsPassBenchmark.GuardState();
    var refusal = new RefusalBenchmark.GuardState();
    var breaker = new QpsWithBreakerBenchmark.GuardState();
    var breakerOpen = new RefusalBenchmark.GuardBreakerOpenState();
    var warmUp = new WarmUpBenchmark.GuardState();
    var pacing = new PacingBenchmark.GuardState();
    assertThatCode(noRules::check).doesNotThrowAnyException();
    assertThatCode(qps::check).doesNotThrowAnyException();
    assertThatCode(refusal::check).doesNotThrowAnyException();
    assertThatCode(breaker::check).doesNotThrowAnyException();
    assertThatCode(breakerOpen::check).doesNotThrowAnyException();
    assertThatCode(warmUp::check).doesNotThrowAnyException();
    assertThatCode(pacing::check).doesNotThrowAnyException();
    assertAdmitsAll(noRules::call);
    assertAdmitsAll(qps::call);
    assertRefusesMost(refusal::call);
    assertAdmitsAll(breaker::call);
    assertRefusesMost(breakerOpen::call);
    assertAdmitsAll(warmUp::call);
    assertAdmitsAll(pacing::call);
  }

  @Test
  void adaptiveAndFixedConcurrency_admitEveryCall() {
    var adaptive = new AdaptiveConcurrencyBenchmark.AdaptiveState();
    var fixed = new AdaptiveConcurrencyBenchmark.FixedState();
    assertThatCode(adaptive::check).doesNotThrowAnyException();
    assertThatCode(fixed::check).doesNotThrowAnyException();
    assertAdmitsAll(adaptive::call);
    assertAdmitsAll(fixed::call);
  }

  @Test
  void noRules_sentinel_admitsEveryCall() {
    var state = new NoRulesBenchmark.SentinelState();
    assertThatCode(state::check).doesNotThrowAnyException();
    assertAdmitsAll(state::call);
  }

  @Test
  void qpsPass_everyLibrary_admitsEveryCall() {
    var sentinel = new QpsPassBenchmark.SentinelState();
    var resilience4j = new QpsPassBenchmark.Resilience4jState();
    var bucket4j = new QpsPassBenchmark.Bucket4jState();
    var guava = new QpsPassBenchmark.GuavaState();
    assertThatCode(sentinel::check).doesNotThrowAnyException();
    assertThatCode(resilience4j::check).doesNotThrowAnyException();
    assertThatCode(bucket4j::check).doesNotThrowAnyException();
    assertThatCode(guava::check).doesNotThrowAnyException();
    assertAdmitsAll(sentinel::call);
    assertAdmitsAll(resilience4j::call);
    assertAdmitsAll(bucket4j::call);
    assertAdmitsAll(guava::call);
  }

  @Test
  void qpsWithBreaker_everyLibrary_admitsEveryCall() {
    var sentinel = new QpsWithBreakerBenchmark.SentinelState();
    var resilience4j = new QpsWithBreakerBenchmark.Resilience4jState();
    assertThatCode(sentinel::check).doesNotThrowAnyException();
    assertThatCode(resilience4j::check).doesNotThrowAnyException();
    assertAdmitsAll(sentinel::call);
    assertAdmitsAll(resilience4j::call);
  }

  @Test
  void perValue_guard_admitsEveryCallAndEnforcesParamRules() {
    var state = new PerValueBenchmark.GuardState();
    assertThatCode(state::check).doesNotThrowAnyException();
    var arguments = new PerValueBenchmark.Arguments();
    assertAdmitsAll(() -> state.call(arguments));
  }

  @Test
  void perValue_sentinel_admitsEveryCallAndEnforcesParamRules() {
    var state = new PerValueBenchmark.SentinelState();
    assertThatCode(state::check).doesNotThrowAnyException();
    var arguments = new PerValueBenchmark.Arguments();
    assertAdmitsAll(() -> state.call(arguments));
  }

  @Test
  void refusal_everyLibrary_refusesNearlyEveryCall() {
    var sentinel = new RefusalBenchmark.SentinelState();
    var resilience4j = new RefusalBenchmark.Resilience4jState();
    var bucket4j = new RefusalBenchmark.Bucket4jState();
    var guava = new RefusalBenchmark.GuavaState();
    var resilience4jBreaker = new RefusalBenchmark.Resilience4jBreakerOpenState();
    assertThatCode(resilience4jBreaker::check).doesNotThrowAnyException();
    assertRefusesMost(resilience4jBreaker::call);
    assertThatCode(sentinel::check).doesNotThrowAnyException();
    assertThatCode(resilience4j::check).doesNotThrowAnyException();
    assertThatCode(bucket4j::check).doesNotThrowAnyException();
    assertThatCode(guava::check).doesNotThrowAnyException();
    assertRefusesMost(sentinel::call);
    assertRefusesMost(resilience4j::call);
    assertRefusesMost(bucket4j::call);
    assertRefusesMost(guava::call);
  }

  @Test
  void warmUp_everyLibrary_admitsEveryCall() {
    var sentinel = new WarmUpBenchmark.SentinelState();
    var guava = new WarmUpBenchmark.GuavaState();
    assertThatCode(sentinel::check).doesNotThrowAnyException();
    assertThatCode(guava::check).doesNotThrowAnyException();
    assertAdmitsAll(sentinel::call);
    assertAdmitsAll(guava::call);
  }

  @Test
  void pacing_everyLibrary_admitsEveryCall() {
    var sentinel = new PacingBenchmark.SentinelState();
    var guava = new PacingBenchmark.GuavaState();
    assertThatCode(sentinel::check).doesNotThrowAnyException();
    assertThatCode(guava::check).doesNotThrowAnyException();
    assertAdmitsAll(sentinel::call);
    assertAdmitsAll(guava::call);
  }

  @Test
  void springClients_plainAndGuarded_answer_andTheGuardedOnesEnterAndExit() {
    var clients = new SpringClientBenchmark.Clients();
    assertThatCode(clients::check).doesNotThrowAnyException();
    assertThat(clients.gate()).isTrue();
  }

  @Test
  void requireAllAdmitted_oneRefusal_failsNamingTheScenario() {
    int[] calls = {0};
    Supplier<Object> refusesOnce = () -> ++calls[0] == 5_000 ? Calls.REFUSED : Calls.ADMITTED;
    assertThatThrownBy(() -> Sanity.requireAllAdmitted("the scenario", refusesOnce))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the scenario")
        .hasMessageContaining("refused 1 of 10000");
  }

  @Test
  void requireMostlyRefused_twoPercentAdmitted_fails() {
    int[] calls = {0};
    Supplier<Object> admitsTwoPercent =
        () -> ++calls[0] % 50 == 0 ? Calls.ADMITTED : Calls.REFUSED;
    assertThatThrownBy(() -> Sanity.requireMostlyRefused("the scenario", admitsTwoPercent))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refused only 9800 of 10000");
  }
}
