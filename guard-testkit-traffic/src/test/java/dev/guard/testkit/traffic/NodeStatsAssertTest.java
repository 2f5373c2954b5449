package dev.guard.testkit.traffic;

import static dev.guard.testkit.traffic.GuardAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.testkit.ManualClock;
import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeStatsAssertTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private void calls(int count) {
    for (int i = 0; i < count; i++) {
      try (Entry ignored = engine.resource("R").entryType(EntryType.IN).enter()) {
        // admitted
      } catch (RefusedException refused) {
        // counted as a refused
      }
    }
  }

  @Test
  void rateChecks_matchingStatistics_pass() {
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 3))));
    calls(5);

    assertThat(engine.stats("R")).hasPassQps(3).hasRefusedQps(2).hasTotalPass(3).hasTotalRefused(2)
        .hasTotalException(0).hasNoCallsRunning();
  }

  @Test
  void hasPassQps_differentRate_failsNamingResourceExpectedAndActual() {
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 3))));
    calls(5);

    assertThatThrownBy(() -> assertThat(engine.stats("R")).hasPassQps(5))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected resource 'R' to have passQps 5.0 but was 3.0");
  }

  @Test
  void hasTotalBlock_differentTotal_failsNamingResourceExpectedAndActual() {
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1))));
    calls(3);

    assertThatThrownBy(() -> assertThat(engine.stats("R")).hasTotalRefused(1))
        .hasMessageContaining("Expected resource 'R' to have totalRefused 1 but was 2");
  }

  @Test
  void hasNoCallsRunning_openEntry_failsWithTheGauge() {
    Entry open = engine.resource("R").enter();

    assertThat(engine.stats("R")).hasConcurrency(1);
    assertThatThrownBy(() -> assertThat(engine.stats("R")).hasNoCallsRunning())
        .hasMessageContaining(
            "Expected resource 'R' to have no calls running but concurrency was 1");
    open.close();
    assertThat(engine.stats("R")).hasNoCallsRunning();
  }

  @Test
  void hasTotalException_recordedErrors_counted() {
    try (Entry entry = engine.resource("R").enter()) {
      entry.recordError(new IllegalStateException("boom"));
    }

    assertThat(engine.stats("R")).hasTotalException(1).hasTotalPass(1);
    assertThatThrownBy(() -> assertThat(engine.stats("R")).hasTotalException(0))
        .hasMessageContaining("to have totalException 0 but was 1");
  }

  @Test
  void hasAverageRt_twoCallsOfTenAndThirtyMillis_isTwenty() {
    Entry first = engine.resource("R").enter();
    clock.advanceMillis(10);
    first.close();
    Entry second = engine.resource("R").enter();
    clock.advanceMillis(30);
    second.close();

    assertThat(engine.stats("R")).hasAverageRt(20);
    assertThatThrownBy(() -> assertThat(engine.stats("R")).hasAverageRt(25))
        .hasMessageContaining("to have averageRt 25.0 but was 20.0");
  }

  @Test
  void assertThat_nodeStatsWithoutResource_failureSaysNodeStatistics() {
    calls(2);
    NodeStats inbound = engine.inboundStats();

    assertThat(inbound).hasPassQps(2);
    assertThatThrownBy(() -> assertThat(inbound).hasConcurrency(4))
        .hasMessageContaining("Expected node statistics to have concurrency 4 but was 0");
  }

  @Test
  void assertThat_resourceStatsTypedAsNodeStats_stillNamesTheResource() {
    NodeStats stats = engine.stats("orders");

    assertThatThrownBy(() -> assertThat(stats).hasTotalPass(1))
        .hasMessageContaining("Expected resource 'orders' to have totalPass 1 but was 0");
  }

  @Test
  void assertThat_nullStatistics_fails() {
    assertThatThrownBy(() -> assertThat((NodeStats) null).hasPassQps(0))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expecting actual not to be null");
  }

  @Test
  void hasPassQps_readsAtTheEnginesCurrentTime() {
    calls(4);
    clock.advance(Duration.ofSeconds(2));

    assertThat(engine.stats("R")).hasPassQps(0).hasTotalPass(4);
  }
}
