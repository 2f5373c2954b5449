package dev.guard.acceptance;

import static dev.guard.acceptance.BreakerScenariosTest.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The half-open state: a probe that never returns is bounded by the probe timeout, and the number
 * of probes is configurable. Every breaker here opens on its first error (error count 0, one
 * call) and stays open 1 s.
 */
class BreakerProbesTest {

  private static final CircuitBreakerRule OPENS_AT_ONCE =
      rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 0, 0, 1, 10_000, 1000);

  private static CircuitBreaker breaker(Scenario s) {
    return s.engine.breakers("R").get(0);
  }

  private static Scenario openedAt0(CircuitBreakerRule rule) {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));
    s.at(0).call("R", 0, true);
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
    return s;
  }

  private static Entry enter(Scenario s) {
    return s.engine.resource("R").enterAsync();
  }

  @Test
  void probeThatNeverReturns_countsAsFailedAtItsDeadline_andTheBreakerProbesAgain() {
    Scenario s = openedAt0(OPENS_AT_ONCE);
    Entry hung = s.at(1000).engine.resource("R").enterAsync();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    assertThat(breaker(s).retryAfter()).isEqualTo(Duration.ofSeconds(1));

    assertThat(s.at(1999).call("R")).isEqualTo("B");
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    assertThat(s.at(2000).call("R")).as("deadline 2000: failed, retry at 3000").isEqualTo("B");
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.at(2999).call("R")).isEqualTo("B");
    assertThat(s.at(3000).call("R", 0, false)).isEqualTo("P");
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);

    hung.close();
    assertThat(s.engine.stats("R").concurrency()).isZero();
  }

  @Test
  void staleProbe_returningLater_doesNotDecideTheNextHalfOpenPeriod() {
    Scenario s = openedAt0(OPENS_AT_ONCE);
    Entry hung = s.at(1000).engine.resource("R").enterAsync();
    s.at(3000);
    Entry probe = enter(s);
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);

    hung.close();
    assertThat(breaker(s).state()).as("a stale probe is only counted").isEqualTo(CircuitBreaker.State.HALF_OPEN);
    probe.recordError(new IllegalStateException("still down"));
    probe.close();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void probeReturningAtItsDeadline_countsAsFailedEvenWhenItSucceeded() {
    Scenario s = openedAt0(OPENS_AT_ONCE);
    s.at(1000);

    assertThat(s.call("R", 1000, false)).isEqualTo("P");

    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.at(2999).call("R")).isEqualTo("B");
    assertThat(s.at(3000).call("R")).isEqualTo("P");
  }

  @Test
  void probeReturningJustBeforeItsDeadline_decides() {
    Scenario s = openedAt0(OPENS_AT_ONCE);
    s.at(1000);

    assertThat(s.call("R", 999, false)).isEqualTo("P");

    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void probeTimeout_shorterThanOpenFor_boundsTheProbeByItself() {
    Scenario s = openedAt0(OPENS_AT_ONCE.withProbes(1, Duration.ofMillis(200)));
    Entry hung = s.at(1000).engine.resource("R").enterAsync();

    assertThat(s.at(1199).call("R")).isEqualTo("B");
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    assertThat(s.at(1200).call("R")).isEqualTo("B");
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(breaker(s).retryAfter()).isEqualTo(Duration.ofMillis(1000));
    assertThat(s.at(2200).call("R")).isEqualTo("P");
    hung.close();
  }

  @Test
  void threeProbes_admitsThree_refusesTheFourth_andClosesWhenAllSucceed() {
    Scenario s = openedAt0(OPENS_AT_ONCE.withProbes(3, null));
    s.at(1000);
    Entry first = enter(s);
    Entry second = enter(s);
    Entry third = enter(s);

    assertThatThrownBy(() -> enter(s)).isInstanceOf(RefusedException.Breaker.class);
    first.close();
    second.close();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    third.close();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void threeProbes_oneFails_reopensAtOnce_andTheOthersDecideNothing() {
    Scenario s = openedAt0(OPENS_AT_ONCE.withProbes(3, null));
    s.at(1000);
    Entry first = enter(s);
    Entry second = enter(s);
    Entry third = enter(s);

    first.close();
    second.recordError(new IllegalStateException("down"));
    second.close();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
    third.close();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.at(1999).call("R")).isEqualTo("B");
    assertThat(s.at(2000).call("R")).isEqualTo("P");
  }

  @Test
  void threeProbes_notAllTakenByTheDeadline_countAsFailed() {
    Scenario s = openedAt0(OPENS_AT_ONCE.withProbes(3, null));
    s.at(1000).call("R", 0, false);
    s.at(1500).call("R", 0, false);

    assertThat(s.at(2000).call("R")).isEqualTo("B");
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }
}
