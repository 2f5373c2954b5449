package dev.guard.handle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Quota;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.Budget;
import dev.guard.engine.GuardedResource.Budget.Policy;
import dev.guard.testkit.InMemoryTokenService;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link GuardedResource#budget()} reports of flow quotas (docs/BEHAVIOUR.md, "Budget"). */
class QuotaBudgetTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final Duration DAY = Duration.ofDays(1);

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private GuardedResource resource(FlowRule... rules) {
    engine.apply(RuleSet.of(List.of(rules)));
    return engine.resource("R");
  }

  private static boolean call(GuardedResource handle) {
    try (Entry ignored = handle.enter()) {
      return true;
    } catch (RefusedException refused) {
      return false;
    }
  }

  private static void pass(GuardedResource handle, int times) {
    for (int i = 0; i < times; i++) {
      assertThat(call(handle)).as("call %d", i).isTrue();
    }
  }

  private static Budget budget(GuardedResource handle) {
    return handle.budget().orElseThrow();
  }

  /** The policy of the quota of this period. */
  private static Policy quota(GuardedResource handle, Duration period) {
    return budget(handle).policies().stream()
        .filter(p -> p.quota() != null && p.quota().period().equals(period))
        .findFirst().orElseThrow();
  }

  @Test
  void budget_listsTheRateThenEveryQuotaWithItsWindowInSeconds() {
    GuardedResource r = resource(FlowRule.qps("R", 1000).withQuota(100, MINUTE)
        .withQuota(10_000, DAY).withQuota(10, Duration.ofMillis(500)));
    assertThat(budget(r).policies())
        .extracting(Policy::quota, Policy::limit, Policy::window, Policy::remaining)
        .containsExactly(
            tuple(null, 1000L, Duration.ofSeconds(1), 1000L),
            tuple(new Quota(100, MINUTE), 100L,
                Duration.ofSeconds(60), 100L),
            tuple(new Quota(10_000, DAY), 10_000L,
                Duration.ofSeconds(86_400), 10_000L),
            tuple(new Quota(10, Duration.ofMillis(500)), 10L,
                Duration.ofSeconds(1), 10L));
  }

  @Test
  void quotas_countDownAndTheirResetRunsFromTheWindowsFirstCall() {
    GuardedResource r = resource(FlowRule.qps("R", 1000).withQuota(100, MINUTE)
        .withQuota(10_000, DAY));
    assertThat(quota(r, MINUTE).reset()).as("full: nothing to refill").isZero();

    clock.advanceMillis(3_000); // the windows start at the first call, not when the rule came
    pass(r, 1);
    assertThat(quota(r, MINUTE)).extracting(Policy::remaining, Policy::reset)
        .containsExactly(99L, Duration.ofMillis(60_001));
    assertThat(quota(r, DAY)).extracting(Policy::remaining, Policy::reset)
        .containsExactly(9_999L, Duration.ofMillis(86_400_001));

    clock.advanceMillis(20_000);
    pass(r, 4);
    assertThat(quota(r, MINUTE)).extracting(Policy::remaining, Policy::reset)
        .containsExactly(95L, Duration.ofMillis(40_001));
    assertThat(quota(r, DAY)).extracting(Policy::remaining, Policy::reset)
        .containsExactly(9_995L, Duration.ofMillis(86_380_001));

    clock.advanceMillis(40_001); // the minute's window has ended: full again, the day's goes on
    assertThat(quota(r, MINUTE)).extracting(Policy::remaining, Policy::reset)
        .containsExactly(100L, Duration.ZERO);
    assertThat(quota(r, DAY).remaining()).isEqualTo(9_995L);
    pass(r, 1);
    assertThat(quota(r, MINUTE)).extracting(Policy::remaining, Policy::reset)
        .containsExactly(99L, Duration.ofMillis(60_001));
    assertThat(quota(r, DAY)).extracting(Policy::remaining, Policy::reset)
        .containsExactly(9_994L, Duration.ofMillis(86_400_001 - 60_001));
  }

  @Test
  void limiting_isThePolicyWithFewestCallsLeft_onATieTheOneThatRefillsLast() {
    GuardedResource r = resource(FlowRule.qps("R", 1000).withQuota(5, MINUTE)
        .withQuota(8, DAY));
    pass(r, 1);
    assertThat(budget(r).limiting().quota()).isEqualTo(new Quota(5, MINUTE));
    pass(r, 4);
    assertThat(budget(r).limiting()).extracting(Policy::quota, Policy::remaining)
        .containsExactly(new Quota(5, MINUTE), 0L);
    assertThat(call(r)).isFalse();

    clock.advance(MINUTE.plusMillis(1));
    assertThat(budget(r).limiting()).extracting(Policy::quota, Policy::remaining)
        .containsExactly(new Quota(8, DAY), 3L);
    pass(r, 3);
    assertThat(budget(r).limiting()).extracting(Policy::quota, Policy::remaining)
        .as("the day is spent before the minute").containsExactly(new Quota(8, DAY), 0L);
    clock.advance(MINUTE.plusMillis(1));
    assertThat(budget(r).limiting()).extracting(Policy::quota, Policy::remaining)
        .as("the minute is full again, the day is spent").containsExactly(new Quota(8, DAY), 0L);
    assertThat(call(r)).isFalse();
  }

  @Test
  void limiting_aRateAtItsLimitIsReportedOverAFullerQuota() {
    GuardedResource r = resource(FlowRule.qps("R", 3).withQuota(100, MINUTE));
    pass(r, 3);
    assertThat(budget(r).limiting()).extracting(Policy::quota, Policy::remaining)
        .containsExactly(null, 0L);
  }

  @Test
  void aRefusedCall_leavesEveryQuotaAsItWas() {
    GuardedResource r = resource(FlowRule.qps("R", 2).withQuota(10, MINUTE));
    pass(r, 2);
    Policy before = quota(r, MINUTE);
    assertThat(call(r)).as("refused by the rate").isFalse();
    assertThat(quota(r, MINUTE)).isEqualTo(before);
    assertThat(before.remaining()).isEqualTo(8);
  }

  @Test
  void aQuotaRefusal_leavesTheOtherRulesQuotaAsItWas() {
    GuardedResource mobile = resource(FlowRule.qps("R", 100).withQuota(10, MINUTE),
        FlowRule.qps("R", 100).withOrigin("mobile").withQuota(1, MINUTE))
        .context("api", "mobile");
    pass(mobile, 1);
    assertThat(call(mobile)).as("refused by the mobile quota").isFalse();
    List<Policy> policies = budget(mobile).policies();
    assertThat(policies).filteredOn(p -> p.quota() != null)
        .extracting(p -> ((FlowRule) p.rule()).origin(), Policy::remaining)
        .containsExactly(tuple("mobile", 0L),
            tuple(FlowRule.EVERY_ORIGIN, 9L));
    assertThat(((FlowRule) budget(mobile).limiting().rule()).origin()).isEqualTo("mobile");
  }

  @Test
  void aQuotaOfZero_reportsNoCallsLeftAndItsPeriodAsTheReset() {
    GuardedResource r = resource(FlowRule.qps("R", 10).withQuota(0, MINUTE));
    assertThat(call(r)).isFalse();
    assertThat(budget(r).limiting()).extracting(Policy::remaining, Policy::reset)
        .containsExactly(0L, MINUTE);
  }

  @Test
  void aClusterRule_reportsItsQuotasAsThisInstanceWasGrantedThem_andNoRate() {
    InMemoryTokenService service = new InMemoryTokenService(clock);
    FlowRule rule = FlowRule.qps("R", 100).withQuota(5, MINUTE)
        .withCluster(ClusterMode.global("shared"));
    GuardEngine one = GuardEngine.builder().clock(clock).tokenService(service.connect("n"))
        .build();
    GuardEngine two = GuardEngine.builder().clock(clock).tokenService(service.connect("n"))
        .build();
    one.apply(RuleSet.of(List.of(rule)));
    two.apply(RuleSet.of(List.of(rule)));
    pass(one.resource("R"), 1);
    pass(two.resource("R"), 3);

    assertThat(budget(one.resource("R")).policies())
        .extracting(Policy::quota, Policy::remaining, Policy::reset)
        .containsExactly(
            tuple(new Quota(5, MINUTE), 4L,
                Duration.ofMillis(60_001)));
    assertThat(budget(two.resource("R")).limiting().remaining()).isEqualTo(2);
    assertThat(call(one.resource("R"))).isTrue();
    assertThat(call(one.resource("R"))).as("the fleet's quota is spent").isFalse();
    assertThat(budget(one.resource("R")).limiting().remaining())
        .as("a refused grant is not counted").isEqualTo(3);
  }
}
