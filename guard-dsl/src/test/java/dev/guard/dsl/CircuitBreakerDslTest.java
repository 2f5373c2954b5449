package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.CircuitBreakerGuard;
import dev.guard.Guard;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Declaring circuit breakers through the DSL. */
class CircuitBreakerDslTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void slowCallRatio_withSettings_declaresTheEquivalentRule() {
    Guard guard = Guard.of("inventory").qps(200)
        .slowCallRatio(0.5, Duration.ofMillis(300))
            .minCalls(10).window(Duration.ofSeconds(10)).openFor(Duration.ofSeconds(5));

    assertThat(guard.rules()).containsExactly(FlowRule.qps("inventory", 200),
        CircuitBreakerRule.slowCallRatio("inventory", Duration.ofMillis(300), 0.5).withMinCalls(10)
            .withStatWindow(Duration.ofSeconds(10), 10).withOpenFor(Duration.ofSeconds(5)));
  }

  @Test
  void breakerStage_everyOption_reachesTheRule() {
    Guard guard = Guard.of("r").errorCount(3)
        .window(Duration.ofSeconds(2), 1).probes(2).probeTimeout(Duration.ofMillis(700));

    assertThat(guard.rules()).containsExactly(new CircuitBreakerRule("r", CircuitBreakerRule.Strategy.ERROR_COUNT, 3,
        null, 5, Duration.ofSeconds(2), 1, Duration.ofSeconds(10), 2, Duration.ofMillis(700)));
  }

  @Test
  void shortcuts_declareOneBreakerEach_andOpenForShapesTheMostRecent() {
    assertThat(Guard.of("payments").errorRatio(0.3).openFor(Duration.ofSeconds(10)).rules())
        .containsExactly(CircuitBreakerRule.errorRatio("payments", 0.3));
    assertThat(Guard.of("mailer").errorCount(20).openFor(Duration.ofSeconds(30)).rules())
        .containsExactly(CircuitBreakerRule.errorCount("mailer", 20).withOpenFor(Duration.ofSeconds(30)));
    assertThat(Guard.of("search").slowCallRatio(0.8, Duration.ofMillis(200))
        .errorRatio(0.5).openFor(Duration.ofSeconds(1)).rules())
        .containsExactly(CircuitBreakerRule.slowCallRatio("search", Duration.ofMillis(200), 0.8),
            CircuitBreakerRule.errorRatio("search", 0.5).withOpenFor(Duration.ofSeconds(1)));
  }

  @Test
  void breakerStage_settingsInAnyOrder_declareTheSameRule() {
    Guard one = Guard.of("r").errorRatio(0.5).openFor(Duration.ofSeconds(3)).minCalls(2);
    Guard other = Guard.of("r").errorRatio(0.5).minCalls(2).openFor(Duration.ofSeconds(3));

    assertThat(one).isEqualTo(other);
    assertThat(one.rules()).containsExactly(CircuitBreakerRule.errorRatio("r", 0.5).withMinCalls(2)
        .withOpenFor(Duration.ofSeconds(3)));
  }

  @Test
  void breakerStage_badValues_areRejectedNamingTheOption() {
    assertThatThrownBy(() -> Guard.of("r").errorRatio(1.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("errorRatio must be a ratio in [0, 1], was 1.5");
    assertThatThrownBy(() -> Guard.of("r").errorCount(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("errorCount must be >= 0, was -1");
    assertThatThrownBy(() -> Guard.of("r").errorRatio(0.5).minCalls(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("minCalls must be > 0, was 0");
    assertThatThrownBy(() -> Guard.of("r").errorRatio(0.5).window(Duration.ofMillis(15)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("buckets must divide window (15 ms) into whole milliseconds, was 10");
  }

  @Test
  void breakerStage_isImmutable() {
    Guard template = Guard.of("r");
    CircuitBreakerGuard failing = template.errorRatio(0.5);

    assertThat(template.rules()).isEmpty();
    assertThat(failing.openFor(Duration.ofSeconds(1))).isNotEqualTo(failing);
    assertThat(failing.rules()).containsExactly(CircuitBreakerRule.errorRatio("r", 0.5));
  }

  @Test
  void breakerGuardAndFlowGuard_ofOneResource_keepEachOthersRules() {
    Supplier<String> limited = Guard.of("r").qps(5).on(engine).decorate(() -> "ok");
    limited.get();
    Supplier<String> broken = Guard.of("r").errorCount(0).minCalls(1).on(engine)
        .decorate(() -> {
          throw new IllegalStateException("down");
        });

    assertThatThrownBy(broken::get).isInstanceOf(IllegalStateException.class);

    assertThat(engine.rules("r")).hasSize(2).first().isEqualTo(FlowRule.qps("r", 5));
    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThatThrownBy(limited::get).isInstanceOf(RefusedException.Breaker.class);
  }
}
