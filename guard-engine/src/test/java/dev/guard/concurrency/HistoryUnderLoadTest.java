package dev.guard.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.api.PeriodStats;
import dev.guard.engine.NodeStats;
import dev.guard.testing.Together;
import dev.guard.testkit.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Eight threads call one limited resource while one of them moves the manual clock across about
 * 40 seconds, so second-level buckets roll up into the minute window under contention. Afterwards
 * the history holds every second exactly once: its sums equal the minute window's totals and the
 * engine's running totals.
 */
class HistoryUnderLoadTest {

  @Test
  void eightThreads_historySumsEqualMinuteTotals() throws Exception {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 200))));
    int perThread = 20_000;

    Together.run(8, index -> {
      for (int i = 0; i < perThread; i++) {
        if (index == 0 && i % 4 == 0) {
          clock.advanceMillis(8);
        }
        try (Entry ignored = engine.resource("R").enter()) {
          // admitted
        } catch (RefusedException refused) {
          // counted as a refused
        }
      }
    });
    clock.advanceMillis(1000);

    List<PeriodStats> history = engine.metricsHistory("R");
    NodeStats minute = engine.stats("R");
    PeriodStats totals = engine.metricsTotals("R");

    assertThat(history.size()).isGreaterThan(30);
    assertThat(history.stream().mapToLong(PeriodStats::total).sum())
        .isEqualTo(minute.totalRequest()).isEqualTo(8L * perThread);
    assertThat(history.stream().mapToLong(PeriodStats::pass).sum()).isEqualTo(minute.totalPass())
        .isEqualTo(totals.pass());
    assertThat(history.stream().mapToLong(PeriodStats::flowRefused).sum())
        .isEqualTo(minute.totalRefused()).isEqualTo(totals.flowRefused());
    assertThat(history.stream().mapToLong(PeriodStats::success).sum())
        .isEqualTo(totals.success()).isEqualTo(totals.pass());
  }
}
