package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.api.rule.RuleState;
import dev.guard.api.rule.RuleState.PerValueState;
import dev.guard.api.rule.RuleState.WarmUpState;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read-only rule states ({@link GuardEngine#ruleStates}) and a resource's origins. */
class RuleStatesTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private static final FlowRule WARM_UP =
      FlowRule.qps("checkout", 10).withWarmUp(Duration.ofSeconds(10), 3);

  @Test
  void ruleStates_unknownResourceOrNoStatefulRules_isEmpty() {
    engine.apply(engine.ruleSet().withRulesOf("plain", List.of(FlowRule.qps("plain", 5))));

    assertThat(engine.ruleStates("nobody")).isEmpty();
    assertThat(engine.ruleStates("plain")).isEmpty();
  }

  @Test
  void ruleStates_warmUpRule_startsColdWithAFullBucket() {
    engine.apply(engine.ruleSet().withRulesOf("checkout", List.of(WARM_UP)));

    List<RuleState> states = engine.ruleStates("checkout");

    assertThat(states).hasSize(1);
    WarmUpState state = (WarmUpState) states.get(0);
    assertThat(state.rule()).isEqualTo(WARM_UP);
    assertThat(state.storedTokens()).isEqualTo(state.maxTokens());
    assertThat(state.cold()).isTrue();
    assertThat(state.allowedQps()).isLessThan(10);
  }

  @Test
  void ruleStates_warmUpRuleAfterSustainedTraffic_isWarm() {
    engine.apply(engine.ruleSet().withRulesOf("checkout", List.of(WARM_UP)));
    for (int second = 0; second < 20; second++) {
      for (int call = 0; call < 12; call++) {
        try (Entry ignored = engine.resource("checkout").enter()) {
          // admitted
        } catch (RefusedException refused) {
          // over the current rate
        }
      }
      clock.advance(Duration.ofSeconds(1));
    }

    WarmUpState state = (WarmUpState) engine.ruleStates("checkout").get(0);

    assertThat(state.cold()).isFalse();
    assertThat(state.allowedQps()).isEqualTo(10.0);
  }

  @Test
  void ruleStates_perValueRule_listsTheValuesItLimits() {
    PerValueRule rule = PerValueRule.qps("profile", 0, 1);
    engine.apply(engine.ruleSet().withRulesOf("profile", List.of(rule)));
    GuardedResource profile = engine.resource("profile");
    enterOnce(profile, "alice");
    enterOnce(profile, "bob");
    enterOnce(profile, "alice");

    PerValueState state = (PerValueState) engine.ruleStates("profile").get(0);

    assertThat(state.rule()).isEqualTo(rule);
    assertThat(state.valuesTracked()).isEqualTo(2);
    assertThat(state.limitedValues()).containsExactlyInAnyOrder("alice", "bob");
  }

  @Test
  void ruleStates_perValueRuleAfterItsPeriod_limitsNothing() {
    engine.apply(engine.ruleSet().withRulesOf("profile", List.of(PerValueRule.qps("profile", 0, 1))));
    enterOnce(engine.resource("profile"), "alice");
    clock.advance(Duration.ofMillis(1001));

    PerValueState state = (PerValueState) engine.ruleStates("profile").get(0);

    assertThat(state.limitedValues()).isEmpty();
    assertThat(state.valuesTracked()).isEqualTo(1);
  }

  @Test
  void ruleStates_reading_changesNoDecision() {
    engine.apply(RuleSet.of(List.of(PerValueRule.qps("profile", 0, 1))));
    GuardedResource profile = engine.resource("profile");
    engine.ruleStates("profile");
    enterOnce(profile, "alice");
    engine.ruleStates("profile");

    assertThatThrownBy(() -> profile.enter("alice").close()).isInstanceOf(RefusedException.class);
  }

  @Test
  void origins_listsCallingOriginsSorted() {
    engine.apply(engine.ruleSet().withRulesOf("orders", List.of(FlowRule.qps("orders", 100))));
    for (String origin : List.of("web", "batch", "web")) {
      try (var context = engine.resource("ctx").context("ctx", origin).openContext();
          Entry ignored = engine.resource("orders").enter()) {
        assertThat(context.opened()).isTrue();
      }
    }

    assertThat(engine.stats("orders").origins()).containsExactly("batch", "web");
    assertThat(engine.stats("nobody").origins()).isEmpty();
  }

  private static void enterOnce(GuardedResource resource, String value) {
    try (Entry ignored = resource.enter(value)) {
      // admitted
    } catch (RefusedException refused) {
      // the value is over its limit
    }
  }
}
