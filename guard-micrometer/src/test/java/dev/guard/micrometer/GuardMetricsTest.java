package dev.guard.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardedResource;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.api.PeriodStats;
import dev.guard.testkit.ManualClock;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The binder's meters after a simulated run on the manual clock: counters equal the engine's own
 * totals, the Prometheus scrape renders the names, and cardinality stays bounded.
 */
class GuardMetricsTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  private final GuardMetrics metrics = GuardMetrics.of(engine);

  /**
   * 10 seconds: 8 calls a second against a limit of 5 (each admitted call takes 20 ms, every 4th
   * fails) and one call from a denied origin.
   */
  private void simulate() {
    engine.apply(
        RuleSet.of(List.of(FlowRule.qps("orders", 5), OriginRule.deny("orders", "bot"))));
    for (int second = 0; second < 10; second++) {
      for (int i = 0; i < 8; i++) {
        try (Entry entry = engine.resource("orders").enter()) {
          clock.advanceMillis(20);
          if (i % 4 == 0) {
            entry.recordError(new IllegalStateException("boom"));
          }
        } catch (RefusedException refused) {
          // counted
        }
      }
      try (Entry entry = engine.resource("orders").context("web", "bot").enter()) {
        throw new AssertionError("bots are denied");
      } catch (RefusedException refused) {
        // counted as authority
      }
      clock.advanceMillis((second + 1) * 1000L - clock.nanoTime() / 1_000_000);
    }
    clock.advanceMillis(1000);
  }

  private static double counter(MeterRegistry registry, String name, String tag, String value) {
    return registry.get(name).tag("resource", "orders").tag(tag, value).functionCounter().count();
  }

  @Test
  void counters_equalTheEngineTotals() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    metrics.bindTo(registry);
    simulate();
    registry.get(GuardMetrics.RESOURCES).gauge().value(); // a scrape registers the new resource

    PeriodStats totals = engine.metricsTotals("orders");
    assertThat(totals.pass()).isEqualTo(50);
    assertThat(counter(registry, GuardMetrics.CALLS, "outcome", "passed")).isEqualTo(50);
    assertThat(counter(registry, GuardMetrics.CALLS, "outcome", "failed"))
        .isEqualTo(totals.exception()).isEqualTo(20);
    assertThat(counter(registry, GuardMetrics.CALLS, "outcome", "succeeded")).isEqualTo(30);
    assertThat(counter(registry, GuardMetrics.REFUSED, "kind", "flow"))
        .isEqualTo(totals.flowRefused()).isEqualTo(30);
    assertThat(counter(registry, GuardMetrics.REFUSED, "kind", "origin")).isEqualTo(10);
    assertThat(counter(registry, GuardMetrics.REFUSED, "kind", "system")).isZero();
    FunctionTimer duration = registry.get(GuardMetrics.DURATION).functionTimer();
    assertThat(duration.count()).isEqualTo(50);
    assertThat(duration.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(50 * 20);
    assertThat(registry.get(GuardMetrics.CONCURRENCY).gauge().value()).isZero();
    assertThat(registry.get(GuardMetrics.RELOADS).functionCounter().count()).isEqualTo(1);
    assertThat(registry.get(GuardMetrics.RESOURCES).gauge().value()).isEqualTo(1);
  }

  @Test
  void prometheusScrape_rendersTheNames() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    metrics.bindTo(registry);
    simulate();
    registry.scrape(); // the first scrape after the rules came registers their resource

    String scrape = registry.scrape();

    assertThat(scrape)
        .contains("guard_calls_total{outcome=\"passed\",resource=\"orders\"} 50.0")
        .contains("guard_calls_refused_total{kind=\"flow\",resource=\"orders\"} 30.0")
        .contains("guard_call_duration_seconds_count{resource=\"orders\"} 50")
        .contains("guard_call_duration_seconds_sum{resource=\"orders\"} 1.0")
        .contains("guard_concurrency{resource=\"orders\"} 0.0")
        .contains("guard_cap_overflows_total{cap=\"resources\"} 0.0")
        .contains("guard_rule_reloads_total 1.0");
  }

  @Test
  void resourcesBeyondTheLimit_getNoMeters() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    GuardMetrics.builder(engine).maxResources(3).build().bindTo(registry);
    for (int r = 0; r < 10; r++) {
      try (Entry ignored = engine.resource("r" + r).enter()) {
        // one call each
      }
    }

    assertThat(registry.get(GuardMetrics.RESOURCES).gauge().value()).isEqualTo(3);
    assertThat(registry.find(GuardMetrics.CALLS).functionCounters()).hasSize(3 * 3);
  }

  @Test
  void builder_maxResources_isPositiveAndSetOnce() {
    GuardMetrics.Builder builder = GuardMetrics.builder(engine);

    assertThatThrownBy(() -> builder.maxResources(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxResources must be > 0, was 0");
    builder.maxResources(5);
    assertThatThrownBy(() -> builder.maxResources(6))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("maxResources is already set");
  }

  @Test
  void reloads_countTheRuleSetsAppliedBeforeAndAfterBinding() {
    engine.apply(RuleSet.of(List.of(FlowRule.qps("a", 1))));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    GuardMetrics.of(engine).bindTo(registry);
    engine.apply(RuleSet.of(List.of(FlowRule.qps("a", 2))));

    assertThat(registry.get(GuardMetrics.RELOADS).functionCounter().count()).isEqualTo(2);
  }

  @Test
  void breakerState_isOneForTheCurrentState() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    engine.apply(engine.ruleSet().withRulesOf("payments", List.of(CircuitBreakerRule.errorCount("payments", 1))));
    metrics.bindTo(registry);

    assertThat(state(registry, "closed")).isEqualTo(1);
    assertThat(state(registry, "open")).isZero();
    engine.breakers("payments").get(0).forceOpen();
    assertThat(state(registry, "closed")).isZero();
    assertThat(state(registry, "forced-open")).isEqualTo(1);
  }

  private static double state(MeterRegistry registry, String state) {
    return registry.get(GuardMetrics.BREAKER_STATE).tag("resource", "payments")
        .tag("breaker", "0").tag("state", state).gauge().value();
  }

  @Test
  void concurrencyLimit_gaugeReadsTheAdaptiveLimit_andRefusalsHaveTheirKind() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    engine.apply(RuleSet.of(AdaptiveConcurrencyRule.of("stock").withLimits(1, 1, 10)));
    metrics.bindTo(registry);
    GuardedResource stock = engine.resource("stock");
    Entry running = stock.enterAsync();
    assertThatThrownBy(stock::enterAsync)
        .isInstanceOf(RefusedException.AdaptiveConcurrency.class);
    running.close();
    clock.advanceMillis(2000);
    registry.get(GuardMetrics.RESOURCES).gauge().value();

    assertThat(registry.get(GuardMetrics.CONCURRENCY_LIMIT).tag("resource", "stock").gauge()
        .value()).isEqualTo(1.0);
    assertThat(registry.get(GuardMetrics.REFUSED).tag("resource", "stock")
        .tag("kind", "adaptive-concurrency").functionCounter().count()).isEqualTo(1.0);
    assertThat(registry.find(GuardMetrics.CONCURRENCY_LIMIT).tag("resource", "orders").gauge())
        .isNull();
  }
}
