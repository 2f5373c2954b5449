package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Per-value behaviour beyond the scenarios: refusals, pacing, undo, reloads and bounds. */
class PerValueBehaviourTest {

  private final List<String> events = new ArrayList<>();
  private final Scenario s = new Scenario(GuardEngine.builder().listener(new EngineListener() {
    @Override
    public void onCapExceeded(Cap cap, String name) {
      events.add(cap + " " + name);
    }
  }));
  private final GuardedResource r = s.engine.resource("R").entryType(EntryType.IN);

  private void load(Rule... rules) {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rules)));
  }

  private String call(Object... args) {
    try (Entry ignored = r.enter(args)) {
      return "P";
    } catch (RefusedException refused) {
      return refused instanceof RefusedException.PerValue ? "B" : "F";
    }
  }

  private RefusedException.PerValue refusal(Object... args) {
    try (Entry ignored = r.enter(args)) {
      throw new AssertionError("admitted");
    } catch (RefusedException.PerValue refused) {
      return refused;
    }
  }

  @Test
  void refusal_namesResolvedIndexAndValue_butKeepsTheValueOutOfTheMessage() {
    load(PerValueRule.qps("R", -1, 2).withBurst(1));
    call("x", "secret-token");
    call("x", "secret-token");
    call("x", "secret-token");
    s.at(400);

    RefusedException.PerValue refused = refusal("x", "secret-token");

    assertThat(refused.resource()).isEqualTo("R");
    assertThat(refused.rule()).isEqualTo(PerValueRule.qps("R", -1, 2).withBurst(1));
    assertThat(refused.argumentIndex()).isEqualTo(1);
    assertThat(refused.value()).isEqualTo("secret-token");
    assertThat(refused.retryAfter()).as("first refill at T0 + 1001 gives ⌊1001·2/1000⌋ = 2")
        .contains(Duration.ofMillis(601));
    assertThat(refused.getMessage()).doesNotContain("secret-token")
        .isEqualTo("per-value limiting refused a call to 'R' by PerValueRule(argument -1, "
            + "2 per 1000 ms, burst 1): the value of argument 1 is over its limit; retry after "
            + "601 ms");
    assertThat(refused.toString()).doesNotContain("secret-token");
    assertThat(refused.getStackTrace()).isEmpty();
  }

  @Test
  void refusal_morePermitsThanTheBucketHolds_hasNoRetryTime() {
    load(PerValueRule.qps("R", 0, 1));
    GuardedResource three = r.permits(3);
    assertThat(call("A")).isEqualTo("P");

    try (Entry ignored = three.enter("A")) {
      throw new AssertionError("admitted");
    } catch (RefusedException.PerValue refused) {
      assertThat(refused.retryAfter()).as("never: 3 permits > count 1 + burst 0").isEmpty();
    }
  }

  @Test
  void refusal_ofACollection_namesTheElementOverItsLimit() {
    load(PerValueRule.qps("R", 0, 1));
    call("b");

    assertThat(refusal(List.of("a", "b", "c")).value()).isEqualTo("b");
    assertThat(call("a") + call("c")).as("nothing taken from a or c").isEqualTo("PP");
  }

  @Test
  void refusal_concurrencyOrZeroThreshold_hasNoRetryTime() {
    load(PerValueRule.concurrency("R", 0, 1).withException("ban", 0));
    try (Entry held = r.enter("A")) {
      assertThat(refusal("A").retryAfter()).isEmpty();
    }
    assertThat(refusal("ban").retryAfter()).isEmpty();
  }

  @Test
  void pacing_spacesEachValueOnItsOwn_andRefusesBeyondTheQueue() {
    load(PerValueRule.qps("R", 0, 10).withPacing(Duration.ofMillis(250)));

    List<String> outcomes = new ArrayList<>();
    for (String value : List.of("A", "A", "B", "A", "A", "B")) {
      int before = s.sleeps.size();
      String outcome = call(value);
      long waited = s.sleeps.size() == before ? 0 : s.sleeps.get(before) / 1_000_000;
      outcomes.add(outcome + "(" + waited + ")");
    }

    assertThat(outcomes).containsExactly("P(0)", "P(100)", "P(0)", "P(200)", "B(0)", "P(100)");
  }

  @Test
  void pacing_refusal_tellsWhenTheCallWouldFitTheQueue() {
    load(PerValueRule.qps("R", 0, 10).withPacing(Duration.ZERO));
    call("A");

    assertThat(refusal("A").retryAfter()).contains(Duration.ofMillis(100));
  }

  @Test
  void exceptionItems_matchOnlyTheirOwnRuntimeType() {
    load(PerValueRule.qps("R", 0, 1)
        .withException(7, 3)
        .withException(7L, 2)
        .withException(2.5, 0)
        .withException(true, 2)
        .withException('c', 2)
        .withException(EntryType.IN, 2));

    assertThat(call(7) + call(7) + call(7) + call(7)).as("Integer 7").isEqualTo("PPPB");
    assertThat(call(7L) + call(7L) + call(7L)).as("Long 7").isEqualTo("PPB");
    assertThat(call((short) 7) + call((short) 7)).as("Short 7: no item").isEqualTo("PB");
    assertThat(call(2.5)).as("Double 2.5").isEqualTo("B");
    assertThat(call(2.5f) + call(2.5f)).as("Float 2.5: no item").isEqualTo("PB");
    assertThat(call(true) + call(true) + call(true)).isEqualTo("PPB");
    assertThat(call('c') + call('c') + call('c')).isEqualTo("PPB");
    assertThat(call("c") + call("c")).as("String c: no item").isEqualTo("PB");
    assertThat(call(EntryType.IN) + call(EntryType.IN) + call(EntryType.IN)).isEqualTo("PPB");
  }

  @Test
  void primitiveArray_checksEachElement() {
    load(PerValueRule.qps("R", 0, 1));

    assertThat(call((Object) new long[] {1, 2})).isEqualTo("P");
    assertThat(call(2L)).isEqualTo("B");
    assertThat(call((Object) new long[] {3, 3})).as("a repeated element needs two tokens")
        .isEqualTo("B");
    assertThat(call(3L)).as("and the refusal took none").isEqualTo("P");
  }

  @Test
  void nonRandomAccessCollection_checksEachElement() {
    load(PerValueRule.qps("R", 0, 1));
    Set<String> set = new TreeSet<>(List.of("a", "b"));

    assertThat(call(set) + call(set) + call("c")).isEqualTo("PBP");
  }

  @Test
  void laterFlowRefusal_givesTheParamTokensBack() {
    load(PerValueRule.qps("R", 0, 1).withPeriod(Duration.ofSeconds(2)), FlowRule.qps("R", 1));

    assertThat(call("A")).isEqualTo("P");
    assertThat(call("B")).as("the flow rule refuses after the param rule took B's token")
        .isEqualTo("F");
    s.at(1500);
    assertThat(call("B")).as("B's token was given back (no refill before 2 s)").isEqualTo("P");
    assertThat(call("B")).isEqualTo("B");
  }

  @Test
  void laterParamRuleRefusal_givesTheEarlierRulesTokensBack() {
    load(PerValueRule.qps("R", 0, 1), PerValueRule.qps("R", 1, 1));
    call("x", "used");

    assertThat(call("A", "used")).isEqualTo("B");
    assertThat(call("A", "fresh")).as("A's token came back").isEqualTo("P");
  }

  @Test
  void laterFlowRefusal_releasesTheConcurrencyPlace() {
    load(PerValueRule.concurrency("R", 0, 1), FlowRule.qps("R", 1));
    call("A");

    assertThat(call("A")).isEqualTo("F");
    s.at(1500);
    try (Entry held = r.enter("A")) {
      assertThat(call("A")).as("the refused call left no place taken").isEqualTo("B");
    }
    s.at(3000);
    assertThat(call("A")).isEqualTo("P");
  }

  @Test
  void reload_unchangedRule_keepsEveryValuesBucket_changedRuleStartsOver() {
    PerValueRule rule = PerValueRule.qps("R", 0, 1);
    load(rule);
    call("A");

    load(rule, FlowRule.qps("R", 100));
    assertThat(call("A")).as("unchanged rule: A still spent").isEqualTo("B");

    load(rule.withBurst(1), FlowRule.qps("R", 100));
    assertThat(call("A")).as("changed rule: A starts with a full bucket").isEqualTo("P");
  }

  @Test
  void reload_unchangedConcurrencyRule_keepsRunningCounts() {
    PerValueRule rule = PerValueRule.concurrency("R", 0, 1);
    load(rule);
    Entry held = r.enter("A");

    load(rule, FlowRule.qps("R", 100));
    assertThat(call("A")).isEqualTo("B");
    held.close();
    assertThat(call("A")).isEqualTo("P");
  }

  @Test
  void bound_forgetsLeastRecentValues_countsAndReportsThem() {
    load(PerValueRule.qps("R", 0, 1).withMaxValues(4));
    call("hot");
    call("a");      // a generation holds 2: {hot, a} becomes the previous generation
    call("hot");    // hot moves back to the current generation
    call("b");      // {hot, b} becomes the previous generation; a is forgotten
    call("c");
    call("d");      // {c, d} becomes the previous generation; hot and b are forgotten

    assertThat(s.engine.overflows(Cap.VALUES)).isEqualTo(3);
    assertThat(events).containsExactly(
        "VALUES R", "VALUES R", "VALUES R");
    assertThat(call("a")).as("a forgotten value starts over with a full bucket").isEqualTo("P");
  }

  @Test
  void bound_neverForgetsAValueWithCallsRunning() {
    load(PerValueRule.concurrency("R", 0, 1).withMaxValues(2));
    Entry held = r.enter("busy");
    for (int i = 0; i < 10; i++) {
      call("v" + i);
    }

    assertThat(call("busy")).isEqualTo("B");
    held.close();
    assertThat(call("busy")).isEqualTo("P");
  }

  @Test
  void callWithArguments_givesBothInputsToTheRules_andPassesBusinessErrorsThrough() {
    load(PerValueRule.qps("R", 1, 1));
    IllegalStateException failure = new IllegalStateException("business");
    String joined = r.callWithArguments("q1", "acme", (query, tenant) -> tenant + query);

    assertThat(joined).isEqualTo("acmeq1");
    assertThatThrownBy(() -> r.callWithArguments("q2", "acme", (query, tenant) -> query))
        .isInstanceOf(RefusedException.PerValue.class);
    assertThatThrownBy(() -> r.callWithArguments("q3", "globex", (query, tenant) -> {
      throw failure;
    })).isSameAs(failure);
    assertThat(s.engine.stats("R").exceptionQps()).isEqualTo(1.0);
    assertThat(s.engine.stats("R").concurrency()).isZero();
  }

  @Test
  void tooManyRules_isRejected() {
    List<PerValueRule> rules = new ArrayList<>();
    for (int i = 0; i < 65; i++) {
      rules.add(PerValueRule.qps("R", i, 1));
    }

    assertThatThrownBy(() -> s.engine.apply(s.engine.ruleSet().withRulesOf("R", rules)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("R: per-value rules of 'R' must be at most 64, was 65");
  }

  @Test
  void tokenBucket_afterYearsIdle_refillsToTheBurstOnly() {
    load(PerValueRule.qps("R", 0, PerValueRule.MAX_TOKENS - 5).withBurst(5)
        .withPeriod(Duration.ofDays(1)));
    GuardedResource all = r.permits(PerValueRule.MAX_TOKENS);
    all.enter("A").close();
    assertThat(call("A")).isEqualTo("B");

    s.at(3L * 365 * 24 * 3600 * 1000);
    all.enter("A").close();
    assertThat(call("A")).as("three years earn no more than the full bucket").isEqualTo("B");
  }
}
