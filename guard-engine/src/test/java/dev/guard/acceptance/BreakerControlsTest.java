package dev.guard.acceptance;

import static dev.guard.acceptance.BreakerScenariosTest.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Operator controls on a breaker, and what its refusal tells the caller. */
class BreakerControlsTest {

  private final List<String> events = new ArrayList<>();
  private final Scenario s = new Scenario(GuardEngine.builder().listener(new EngineListener() {
    @Override
    public void onBreakerStateChanged(CircuitBreaker.Transition t) {
      events.add(t.from() + "->" + t.to());
    }
  }));
  private final CircuitBreakerRule rule = rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 0, 0, 1, 10_000, 1000);

  private CircuitBreaker breaker() {
    return s.engine.breakers("R").get(0);
  }

  @Test
  void forceOpen_refusesEveryCall_andNeverProbes() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));

    breaker().forceOpen();

    assertThat(s.call("R")).isEqualTo("B");
    assertThat(s.at(60_000).call("R")).isEqualTo("B");
    assertThat(breaker().state()).isEqualTo(CircuitBreaker.State.FORCED_OPEN);
    assertThat(breaker().retryAfter()).as("a hint: the open duration").isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void forceClosed_admitsEveryCall_andFailuresNeverOpenIt() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));
    s.call("R", 0, true);

    breaker().forceClosed();
    for (int i = 0; i < 5; i++) {
      assertThat(s.call("R", 0, true)).isEqualTo("P");
    }

    assertThat(breaker().state()).isEqualTo(CircuitBreaker.State.FORCED_CLOSED);
    assertThat(breaker().retryAfter()).isZero();
  }

  @Test
  void reset_closesAnOpenBreaker_withAnEmptyWindow() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 1, 0, 1, 10_000, 1000))));
    s.call("R", 0, true);
    s.call("R", 0, true);

    breaker().reset();

    assertThat(breaker().state()).isEqualTo(CircuitBreaker.State.CLOSED);
    s.call("R", 0, true);
    assertThat(breaker().state()).as("one error since the reset").isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void controls_areReportedAsTransitions() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));

    breaker().forceOpen();
    breaker().forceClosed();
    breaker().reset();
    breaker().reset();

    assertThat(events).containsExactly("CLOSED->FORCED_OPEN", "FORCED_OPEN->FORCED_CLOSED",
        "FORCED_CLOSED->CLOSED");
  }

  @Test
  void refusal_carriesTheRuleTheBreakerAndTheTimeToTheNextProbe() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule.withOpenFor(Duration.ofSeconds(5)))));
    s.call("R", 0, true);
    s.at(2000);

    assertThatThrownBy(() -> s.engine.resource("R").enter())
        .isInstanceOfSatisfying(RefusedException.Breaker.class, refused -> {
          assertThat(refused.resource()).isEqualTo("R");
          assertThat(refused.rule()).isEqualTo(rule.withOpenFor(Duration.ofSeconds(5)));
          assertThat(refused.breaker()).isSameAs(breaker());
          assertThat(refused.state()).isEqualTo(CircuitBreaker.State.OPEN);
          assertThat(refused.retryAfter()).contains(Duration.ofSeconds(3));
          assertThat(refused.retryAfterMillis()).isEqualTo(3000);
          assertThat(refused.getStackTrace()).isEmpty();
          assertThat(refused.getMessage()).contains("circuit breaker", "'R'");
        });
  }

  @Test
  void refusal_isOneInstancePerBreaker() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));
    s.call("R", 0, true);
    Throwable first = null;
    try {
      s.engine.resource("R").enter();
    } catch (RefusedException.Breaker refused) {
      first = refused;
    }
    Throwable firstRefusal = first;

    assertThatThrownBy(() -> s.engine.resource("R").enter()).isSameAs(firstRefusal);
  }
}
