package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The default sliding window: 1 s in 10 buckets of 100 ms. */
class BreakerWindowTest {

  private static CircuitBreaker.State state(Scenario s) {
    return s.engine.breakers("R").get(0).state();
  }

  @Test
  void burstStraddlingABucketEdge_isNotForgotten() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(CircuitBreakerRule.errorCount("R", 2).withMinCalls(1))));

    s.at(900).call("R", 0, true);
    s.call("R", 0, true);
    assertThat(state(s)).isEqualTo(CircuitBreaker.State.CLOSED);
    s.at(1000).call("R", 0, true);

    assertThat(state(s)).as("3 errors within 100 ms (a tumbling window forgets 2)")
        .isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void errorsOlderThanTheWindow_slideOut_oneBucketAtATime() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(CircuitBreakerRule.errorCount("R", 2).withMinCalls(1))));

    s.at(0).call("R", 0, true);
    s.at(150).call("R", 0, true);
    s.at(1000).call("R", 0, true);
    assertThat(state(s)).as("the error at 0 slid out with its bucket").isEqualTo(CircuitBreaker.State.CLOSED);
    s.at(1099).call("R", 0, true);
    assertThat(state(s)).as("150, 1000 and 1099 are within the window").isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void goodCallsSlidingOut_raiseTheRatio_andTheNextGoodCallOpens() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(CircuitBreakerRule.errorRatio("R", 0.5).withMinCalls(2))));

    for (int i = 0; i < 5; i++) {
      s.at(0).call("R", 0, false);
    }
    for (int i = 0; i < 3; i++) {
      s.at(500).call("R", 0, true);
    }
    assertThat(state(s)).as("3/8").isEqualTo(CircuitBreaker.State.CLOSED);
    s.at(1000).call("R", 0, false);

    assertThat(state(s)).as("3/4 once the five good calls slid out").isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void bucketCount_ofOne_isTheTumblingWindow() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(CircuitBreakerRule.errorCount("R", 2).withMinCalls(1)
        .withStatWindow(Duration.ofSeconds(1), 1))));

    s.at(900).call("R", 0, true);
    s.call("R", 0, true);
    s.at(1000).call("R", 0, true);

    assertThat(state(s)).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void longWindow_countsEveryBucketOfIt() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(CircuitBreakerRule.errorCount("R", 2).withMinCalls(1)
        .withStatWindow(Duration.ofSeconds(10), 5))));

    s.at(0).call("R", 0, true);
    s.at(4000).call("R", 0, true);
    s.at(9999).call("R", 0, true);

    assertThat(state(s)).isEqualTo(CircuitBreaker.State.OPEN);
  }
}
