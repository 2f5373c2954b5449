package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.SystemRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.FakeSystemStatus;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SEMANTICS A21 (system protection) on a manual clock with a fake status source, with guard's
 * behaviour in the † steps: checking is on iff some threshold is set, {@code maxConcurrency = N}
 * admits N, an invalid threshold is refused when the rule is built.
 */
class SystemScenariosTest {

  private final FakeSystemStatus status = new FakeSystemStatus();
  private final Scenario s = new Scenario(GuardEngine.builder().systemStatus(status));
  private final List<Entry> held = new ArrayList<>();

  @AfterEach
  void gaugesReturnToZero() {
    for (int i = held.size() - 1; i >= 0; i--) {
      held.get(i).close();
    }
    assertThat(s.engine.inboundStats().concurrency()).isZero();
  }

  /** Enters and exits an IN call: "P", or the refusing threshold's name. */
  private String call(String resource) {
    try (Entry ignored = s.engine.resource(resource).entryType(EntryType.IN).enter()) {
      return "P";
    } catch (RefusedException.SystemProtection refused) {
      return refused.limit().name();
    }
  }

  /** Enters an IN call and keeps it open: "P", or the refusing threshold's name. */
  private String hold(String resource) {
    try {
      held.add(s.engine.resource(resource).entryType(EntryType.IN).enter());
      return "P";
    } catch (RefusedException.SystemProtection refused) {
      return refused.limit().name();
    }
  }

  private void load(SystemRule... rules) {
    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(rules)));
  }

  @Test
  void step1_qps_countsInboundCallsOfEveryResource_andNeverOutbound() {
    load(SystemRule.of().withMaxInboundQps(3));

    assertThat(List.of(call("r1"), call("r2"), call("r3"), call("r4")))
        .containsExactly("P", "P", "P", "QPS");
    assertThat(s.call("r5", EntryType.OUT)).isEqualTo("P");
    assertThat(s.call("r6", EntryType.OUT)).isEqualTo("P");
  }

  @Test
  void step2_maxConcurrencyOne_admitsOneCall() { // † Sentinel admits 2
    load(SystemRule.of().withMaxConcurrency(1));
    s.at(5000);

    assertThat(hold("e1")).isEqualTo("P");
    assertThat(hold("e2")).isEqualTo("CONCURRENCY");
    assertThat(hold("e3")).isEqualTo("CONCURRENCY");
    held.get(0).close();
    held.clear();
    assertThat(hold("e4")).isEqualTo("P");
  }

  @Test
  void step3_invalidThreshold_isRefusedWhenBuilt_notSilentlyDisablingTheRest() { // †
    assertThatThrownBy(() -> SystemRule.of().withMaxCpuUsage(2.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxCpuUsage must be in [0, 1], was 2.0");

    load(SystemRule.of().withMaxInboundQps(1), SystemRule.of());
    s.at(10_000);

    assertThat(List.of(call("a"), call("b"), call("c"))).containsExactly("P", "QPS", "QPS");
  }

  @Test
  void step4_thresholdsMergeByMinimum() {
    load(SystemRule.of().withMaxSystemLoad(1.2), SystemRule.of().withMaxSystemLoad(2.3),
        SystemRule.of().withMaxSystemLoad(3.4));
    status.systemLoad(2.0);

    // no traffic yet: capacity = maxSuccessQps 2 × minRt 5000 ms / 1000 = 10 calls at once
    for (int i = 0; i < 11; i++) {
      assertThat(hold("r")).isEqualTo("P");
    }
    assertThatThrownBy(() -> s.engine.resource("r").entryType(EntryType.IN).enter())
        .isInstanceOfSatisfying(RefusedException.SystemProtection.class, refused -> {
          assertThat(refused.limit()).isEqualTo(SystemRule.Limit.LOAD);
          assertThat(refused.threshold()).isEqualTo(1.2);
          assertThat(refused.rule()).isEqualTo(SystemRule.of().withMaxSystemLoad(1.2));
        });
  }

  @Test
  void load_belowItsThreshold_neverRunsTheCapacityTest() {
    load(SystemRule.of().withMaxSystemLoad(1.2));
    status.systemLoad(1.2);

    for (int i = 0; i < 20; i++) {
      assertThat(hold("r")).isEqualTo("P");
    }
  }

  @Test
  void load_overItsThreshold_refusesOnlyWhileConcurrencyExceedsMeasuredCapacity() {
    load(SystemRule.of().withMaxSystemLoad(1.0));
    status.systemLoad(3.0);
    // 4 calls of 10 ms complete in one bucket: maxSuccessQps = 4 × 2 buckets / 1 s = 8, minRt 10
    for (int i = 0; i < 4; i++) {
      Entry entry = s.engine.resource("r").entryType(EntryType.IN).enter();
      s.clock.advanceMillis(10);
      entry.close();
    }
    // capacity 8 × 10 / 1000 = 0.08 calls, but a single call always passes
    assertThat(hold("r")).isEqualTo("P");
    assertThat(hold("r")).isEqualTo("P");
    assertThat(hold("r")).isEqualTo("LOAD");
    status.systemLoad(0.5);
    assertThat(hold("r")).isEqualTo("P");
  }

  @Test
  void rt_overAverage_refusesUntilTheWindowForgetsTheSlowCalls() {
    load(SystemRule.of().withMaxAverageRt(Duration.ofMillis(50)));
    Entry slow = s.engine.resource("r").entryType(EntryType.IN).enter();
    s.clock.advanceMillis(100);
    slow.close();

    assertThat(call("other")).isEqualTo("RT");
    s.at(1200);
    assertThat(call("other")).isEqualTo("P");
  }

  @Test
  void cpu_overItsThreshold_refuses_unknownOrAtTheThreshold_passes() {
    load(SystemRule.of().withMaxCpuUsage(0.8));

    assertThat(call("r")).isEqualTo("P"); // unknown
    status.cpuUsage(0.8);
    assertThat(call("r")).isEqualTo("P");
    status.cpuUsage(0.81);
    assertThat(call("r")).isEqualTo("CPU");
    assertThat(s.call("r", EntryType.OUT)).isEqualTo("P");
  }

  @Test
  void checks_runInOrder_qpsFirst() {
    load(SystemRule.of().withMaxInboundQps(1).withMaxCpuUsage(0.5));
    status.cpuUsage(0.9);

    assertThat(call("r")).isEqualTo("CPU");       // passQps 0 + 1 <= 1, then cpu refuses
    load(SystemRule.of().withMaxInboundQps(0).withMaxCpuUsage(0.5));
    assertThat(call("r")).isEqualTo("QPS");
  }

  @Test
  void emptyRules_switchProtectionOff() {
    load(SystemRule.of().withMaxInboundQps(0));
    assertThat(call("r")).isEqualTo("QPS");

    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of()));

    assertThat(call("r")).isEqualTo("P");
    assertThat(s.engine.ruleSet().rulesOf(SystemRule.class)).isEmpty();
  }

  @Test
  void rules_applyToResourcesCreatedLater_andKeepTheirOwnRules() {
    load(SystemRule.of().withMaxInboundQps(0));

    assertThat(call("createdAfterwards")).isEqualTo("QPS");
    assertThat(s.engine.rules("createdAfterwards")).isEmpty();
  }

  @Test
  void refusal_isCountedAsABlockOnTheInboundNode() {
    load(SystemRule.of().withMaxInboundQps(0));

    call("r");

    assertThat(s.engine.inboundStats().refusedQps()).isEqualTo(1.0);
    assertThat(s.engine.stats("r").refusedQps()).isEqualTo(1.0);
  }

  @Test
  void systemRule_inAResourcesRules_isRefusedWithWhereItBelongs() {
    assertThatThrownBy(() -> s.engine.resource("r").declare(List.of(SystemRule.of().withMaxInboundQps(1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("apply it in the rule set with GuardEngine.apply(..)");
  }

  @Test
  void blockedException_isTheSharedRefusalOfItsThreshold() {
    load(SystemRule.of().withMaxInboundQps(0));

    RefusedException first = refusal("r");
    RefusedException second = refusal("r");

    assertThat(first).isSameAs(second).isInstanceOf(RefusedException.SystemProtection.class);
    assertThat(first.resource()).isEqualTo("r");
  }

  private RefusedException refusal(String resource) {
    try (Entry ignored = s.engine.resource(resource).entryType(EntryType.IN).enter()) {
      throw new AssertionError("admitted");
    } catch (RefusedException refused) {
      return refused;
    }
  }
}
