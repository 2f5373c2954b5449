package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.EntryType;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.RuleState;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.SystemRule;
import dev.guard.api.RefusedException;
import dev.guard.spi.Cap;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.api.PeriodStats;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-second metrics history (docs/BEHAVIOUR.md, "Metrics history") on the manual clock:
 * what a second holds, that each second is recorded exactly once across reads and idle gaps, the
 * span and the totals, and the memory budget.
 */
class MetricsHistoryTest {

  private static long sum(List<PeriodStats> seconds, java.util.function.ToLongFunction<PeriodStats> f) {
    return seconds.stream().mapToLong(f).sum();
  }

  @Test
  void aSecond_holdsPassBlockByKindCompletionsAndResponseTimes() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 3), OriginRule.deny("R", "bad"))));
    s.at(1000);
    for (int i = 0; i < 3; i++) {
      try (Entry ignored = s.engine.resource("R").enter()) {
        s.clock.advanceMillis(10 * (i + 1)); // response times 10, 20, 30 ms
      }
    }
    assertThat(s.calls("R", 2)).isEqualTo("BB");
    try (ContextScope ignored = s.engine.resource("web").context("web", "bad").openContext()) {
      assertThat(s.call("R")).isEqualTo("B");
    }
    s.at(2500);

    List<PeriodStats> history = s.engine.metricsHistory("R");

    assertThat(history).containsExactly(new PeriodStats(61_000, 62_000, 3, 3, 2, 0, 0, 0, 1, 0, 3, 0,
        60, 10, 0, PeriodStats.NO_ADAPTIVE_LIMIT));
    PeriodStats second = history.get(0);
    assertThat(second.refused(RefusedException.Kind.FLOW)).isEqualTo(2);
    assertThat(second.refused(RefusedException.Kind.ORIGIN)).isEqualTo(1);
    assertThat(second.averageRtMs()).isEqualTo(20.0);
    assertThat(second.total()).isEqualTo(6);
    assertThat(s.engine.metricsHistory("R", 62_000, 70_000)).isEmpty();
  }

  @Test
  void aSecond_holdsTheAdaptiveLimitInForceWhenItWasRecorded() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R",
        List.of(AdaptiveConcurrencyRule.of("R").withLimits(4, 1, 100))));
    s.at(1000);
    List<Entry> running = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      running.add(s.engine.resource("R").enterAsync());
    }
    assertThat(s.calls("R", 1)).isEqualTo("B"); // the limit of 4 is in force
    s.at(2000);
    assertThat(s.engine.metricsHistory("R", 61_000, 62_000)).extracting(PeriodStats::adaptiveLimit)
        .containsExactly(4);

    s.clock.advanceMillis(150); // a window of 100 ms closes at the next exit: the limit grows
    running.forEach(Entry::close);
    int grown = ((RuleState.AdaptiveConcurrencyState) s.engine.ruleStates("R").get(0)).limit();
    assertThat(grown).isGreaterThan(4);
    s.at(3000);

    assertThat(s.engine.metricsHistory("R", 61_000, 63_000)).extracting(PeriodStats::adaptiveLimit)
        .containsExactly(4, grown);
    assertThat(s.engine.metricsTotals("R").adaptiveLimit()).isEqualTo(grown);
    try (Entry ignored = s.engine.resource("plain").enter()) {
      s.at(4000);
    }
    assertThat(s.engine.metricsHistory("plain")).extracting(PeriodStats::adaptiveLimit)
        .containsOnly(PeriodStats.NO_ADAPTIVE_LIMIT);
  }

  @Test
  void seconds_areRecordedOnce_acrossRepeatedReadsAndIdleGaps() {
    Scenario s = new Scenario();
    int[] traffic = {1, 2, 3, 17, 18, 40, 41, 42};
    long calls = 0;
    for (int second : traffic) {
      s.at(second * 1000L + 300);
      int n = second % 5 + 1;
      s.calls("R", n);
      calls += n;
      if (second % 2 == 0) {
        s.engine.metricsHistory("R"); // a read in between records what closed so far
      }
    }
    s.at(50_000);

    List<PeriodStats> history = s.engine.metricsHistory("R");
    List<PeriodStats> again = s.engine.metricsHistory("R");

    assertThat(again).isEqualTo(history);
    assertThat(history).extracting(PeriodStats::fromMs)
        .containsExactly(61_000L, 62_000L, 63_000L, 77_000L, 78_000L, 100_000L, 101_000L, 102_000L);
    assertThat(sum(history, PeriodStats::pass)).isEqualTo(calls);
    assertThat(sum(history, PeriodStats::pass))
        .isEqualTo(s.engine.stats("R").totalPass()).isEqualTo(s.engine.metricsTotals("R").pass());
    assertThat(s.engine.metricsTotals("R").success()).isEqualTo(calls);
  }

  @Test
  void span_keepsTheLatestSeconds_totalsKeepEverySecond() {
    Scenario s = new Scenario(GuardEngine.builder().metricsHistory(Duration.ofSeconds(60)));
    for (int second = 0; second < 180; second++) {
      s.at(second * 1000L + 1);
      s.calls("R", 2);
      if (second % 30 == 0) {
        s.engine.recordMetrics();
      }
    }
    s.at(180_000);

    List<PeriodStats> history = s.engine.metricsHistory("R");

    assertThat(history).hasSize(60);
    assertThat(history.get(0).fromMs()).isEqualTo(60_000 + 120_000);
    assertThat(s.engine.metricsTotals("R").pass()).isEqualTo(360);
    assertThat(s.engine.metricsTotals("R").toMs()).isEqualTo(60_000 + 180_000);
  }

  @Test
  void collectingTooRarely_losesOnlyTheSecondsTheMinuteWindowNoLongerHolds() {
    Scenario s = new Scenario();
    for (int second = 0; second < 90; second++) {
      s.at(second * 1000L + 1);
      s.calls("R", 1);
    }
    s.at(90_000);

    List<PeriodStats> history = s.engine.metricsHistory("R");

    // read at second 90: seconds 31..89 are still readable, 0..30 were reused by the minute window
    assertThat(history).hasSizeBetween(58, 60);
    assertThat(history.get(history.size() - 1).fromMs()).isEqualTo(60_000 + 89_000);
  }

  @Test
  void systemRefusals_areCountedAsSystem() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxInboundQps(1))));
    s.at(100);
    assertThat(s.calls("R", 3)).isEqualTo("PBB");
    s.at(1000);

    assertThat(s.engine.metricsHistory("R")).singleElement()
        .satisfies(second -> assertThat(second.refused(RefusedException.Kind.SYSTEM)).isEqualTo(2));
    assertThat(s.engine.metricsTotals("R").systemRefused()).isEqualTo(2);
  }

  @Test
  void tenThousandResources_stayWithinTheBudget_totalsStayExact() {
    Scenario s = new Scenario(GuardEngine.builder().maxResources(10_000).metricsHistoryBudget(50_000));
    int resources = 10_000;
    int seconds = 10;
    for (int second = 0; second < seconds; second++) {
      s.at(second * 1000L);
      for (int r = 0; r < resources; r++) {
        try (Entry ignored = s.engine.resource("r" + r).entryType(EntryType.IN).enter()) {
          // one call per resource and second
        }
      }
      s.engine.recordMetrics();
    }
    s.at(seconds * 1000L);

    long kept = 0;
    for (int r = 0; r < resources; r++) {
      kept += s.engine.metricsHistory("r" + r).size();
      assertThat(s.engine.metricsTotals("r" + r).pass()).isEqualTo(seconds);
    }
    assertThat(kept).isLessThanOrEqualTo(50_000).isGreaterThan(25_000);
    assertThat(s.engine.overflows(Cap.HISTORY)).isPositive();
  }
}
