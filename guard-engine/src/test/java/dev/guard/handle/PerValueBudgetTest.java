package dev.guard.handle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.Budget;
import dev.guard.engine.GuardedResource.Budget.Policy;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link GuardedResource#budget(Object...)} reports of per-value rules for a call's value
 * (docs/BEHAVIOUR.md, "Budget"): the value's own bucket and quotas, read without changing them.
 */
class PerValueBudgetTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private GuardedResource resource(Rule... rules) {
    engine.apply(RuleSet.of(List.of(rules)));
    return engine.resource("R");
  }

  private static boolean call(GuardedResource handle, Object value) {
    try (Entry ignored = handle.enter(value)) {
      return true;
    } catch (RefusedException refused) {
      return false;
    }
  }

  private static void pass(GuardedResource handle, Object value, int times) {
    for (int i = 0; i < times; i++) {
      assertThat(call(handle, value)).as("call %d of %s", i, value).isTrue();
    }
  }

  private static Policy only(GuardedResource handle, Object value) {
    List<Policy> policies = handle.budget(value).orElseThrow().policies();
    assertThat(policies).hasSize(1);
    return policies.get(0);
  }

  @Test
  void aValueNotSeenYet_hasItsWholeRate() {
    PerValueRule rule = PerValueRule.qps("R", 0, 5).withBurst(2);
    GuardedResource r = resource(rule);
    assertThat(only(r, "alice")).isEqualTo(
        new Policy(rule, null, 5, Duration.ofSeconds(1), 5, Duration.ZERO));
  }

  @Test
  void eachValue_reportsItsOwnBucket_andTheNextRefill() {
    GuardedResource r = resource(PerValueRule.qps("R", 0, 5).withBurst(2));
    pass(r, "alice", 3);
    assertThat(only(r, "alice")).extracting(Policy::remaining, Policy::reset)
        .containsExactly(4L, Duration.ofMillis(1001));
    assertThat(only(r, "bob").remaining()).isEqualTo(5);

    pass(r, "alice", 4);
    assertThat(call(r, "alice")).as("the burst is spent").isFalse();
    assertThat(only(r, "alice").remaining()).isZero();

    clock.advance(Duration.ofMillis(1001));
    assertThat(only(r, "alice")).extracting(Policy::remaining, Policy::reset)
        .as("refilled by the read's arithmetic, without a call").containsExactly(5L,
            Duration.ofMillis(1001));
  }

  @Test
  void anExceptionValue_reportsItsOwnThreshold() {
    GuardedResource r = resource(PerValueRule.qps("R", 0, 5).withException("vip", 50));
    assertThat(only(r, "vip").limit()).isEqualTo(50);
    assertThat(only(r, "alice").limit()).isEqualTo(5);
  }

  @Test
  void aQuota_isReportedAfterTheRate_andLimitsOnceSpent() {
    PerValueRule rule = PerValueRule.qps("R", 0, 100).withQuota(10, MINUTE);
    GuardedResource r = resource(rule);
    pass(r, "alice", 10);
    Budget budget = r.budget("alice").orElseThrow();
    assertThat(budget.policies())
        .extracting(Policy::quota, Policy::limit, Policy::window, Policy::remaining)
        .containsExactly(tuple(null, 100L, Duration.ofSeconds(1), 90L),
            tuple(rule.quotas().get(0), 10L, MINUTE, 0L));
    assertThat(budget.limiting()).extracting(Policy::quota, Policy::reset)
        .containsExactly(rule.quotas().get(0), Duration.ofMillis(60_001));

    assertThat(call(r, "alice")).as("refused by the quota").isFalse();
    assertThat(r.budget("alice").orElseThrow()).as("a refusal takes nothing").isEqualTo(budget);
  }

  @Test
  void flowRulesComeFirst_thenPerValueRules() {
    PerValueRule perValue = PerValueRule.qps("R", 1, 5);
    GuardedResource r = resource(perValue, FlowRule.qps("R", 100));
    assertThat(r.budget("ignored", "alice").orElseThrow().policies())
        .extracting(Policy::rule).containsExactly(FlowRule.qps("R", 100), perValue);
    assertThat(r.budget().orElseThrow().policies()).as("without arguments: the flow rule")
        .extracting(Policy::rule).containsExactly(FlowRule.qps("R", 100));
  }

  @Test
  void valuesWithoutOneBudget_reportNothing() {
    assertThat(resource(PerValueRule.qps("R", 0, 5)).budget(List.of("a", "b")))
        .as("a collection argument").isEmpty();
    assertThat(resource(PerValueRule.qps("R", 0, 5)).budget()).as("no argument").isEmpty();
    assertThat(resource(PerValueRule.qps("R", 0, 5)).budget((Object[]) null)).as("null arguments")
        .isEmpty();
    assertThat(resource(PerValueRule.qps("R", 0, 5)).budget((Object) null)).as("a null value")
        .isEmpty();
    assertThat(resource(PerValueRule.concurrency("R", 0, 5)).budget("a"))
        .as("a concurrency limit").isEmpty();
    assertThat(resource(PerValueRule.qps("R", 0, 5).withPacing(Duration.ofSeconds(1)))
        .budget("a")).as("a paced rate").isEmpty();
    assertThat(resource(PerValueRule.qps("R", 0, 5).withCluster(ClusterMode.global("R[0]")))
        .budget("a")).as("a cluster rule: its buckets are the token service's").isEmpty();
  }

  @Test
  void aThresholdOfZero_reportsNothingLeft_andItsPeriodAsTheReset() {
    GuardedResource r = resource(PerValueRule.qps("R", 0, 0).withPeriod(MINUTE));
    assertThat(only(r, "alice")).extracting(Policy::limit, Policy::remaining, Policy::reset)
        .containsExactly(0L, 0L, MINUTE);
  }
}
