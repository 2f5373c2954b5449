package dev.guard.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.SystemRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.FakeSystemStatus;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever the system thresholds, the machine's readings and the traffic: outbound calls are never
 * refused by system protection, inbound calls running at once never exceed {@code maxConcurrency},
 * and every gauge returns to zero once all calls end.
 */
class SystemProperties {

  enum Op { IN_A, IN_B, OUT_A, CLOSE_OLDEST, CLOSE_NEWEST, TICK, CPU_UP, CPU_DOWN, LOAD_UP, LOAD_DOWN }

  @Provide
  Arbitrary<SystemRule> rules() {
    return Combinators.combine(
            Arbitraries.doubles().between(0, 6).ofScale(1).injectNull(0.4),
            Arbitraries.integers().between(0, 4).injectNull(0.3),
            Arbitraries.longs().between(0, 60).map(Duration::ofMillis).injectNull(0.6),
            Arbitraries.doubles().between(0, 2).ofScale(2).injectNull(0.5),
            Arbitraries.doubles().between(0, 1).ofScale(2).injectNull(0.5))
        .as(SystemRule::new);
  }

  @Provide
  Arbitrary<List<SystemRule>> ruleLists() {
    return rules().list().ofMaxSize(3);
  }

  @Provide
  Arbitrary<List<Op>> traffic() {
    return Arbitraries.of(Op.class).list().ofMinSize(1).ofMaxSize(80);
  }

  @Property(tries = 200)
  void outboundNeverRefused_inboundConcurrencyBounded_gaugesReturnToZero(
      @ForAll("ruleLists") List<SystemRule> rules, @ForAll("traffic") List<Op> traffic) {
    ManualClock clock = new ManualClock();
    FakeSystemStatus status = new FakeSystemStatus();
    GuardEngine engine = GuardEngine.builder().clock(clock).systemStatus(status).build();
    engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, rules));
    Integer maxConcurrency = SystemRule.merge(rules).maxConcurrency();
    List<Entry> inbound = new ArrayList<>();
    List<Entry> open = new ArrayList<>();
    double cpu = -0.25;
    double load = -0.5;
    for (Op op : traffic) {
      switch (op) {
        case IN_A, IN_B -> {
          try {
            Entry entry = engine.resource(op == Op.IN_A ? "a" : "b")
                .entryType(EntryType.IN).enterAsync();
            inbound.add(entry);
            open.add(entry);
          } catch (RefusedException.SystemProtection refused) {
            // shed
          }
        }
        case OUT_A -> open.add(engine.resource("a").enterAsync()); // never refused
        case CLOSE_OLDEST, CLOSE_NEWEST -> {
          if (!open.isEmpty()) {
            Entry entry = open.remove(op == Op.CLOSE_OLDEST ? 0 : open.size() - 1);
            entry.close();
            inbound.remove(entry);
          }
        }
        case TICK -> clock.advanceMillis(137);
        case CPU_UP, CPU_DOWN -> status.cpuUsage(cpu = Math.min(1, cpu + (op == Op.CPU_UP ? 0.25 : -0.25)));
        case LOAD_UP, LOAD_DOWN -> status.systemLoad(load += op == Op.LOAD_UP ? 0.5 : -0.5);
      }
      if (maxConcurrency != null) {
        assertThat(inbound).hasSizeLessThanOrEqualTo(maxConcurrency);
      }
      assertThat(engine.inboundStats().concurrency()).isEqualTo(inbound.size());
    }
    for (Entry entry : open) {
      entry.close();
    }
    assertThat(engine.inboundStats().concurrency()).isZero();
    assertThat(engine.stats("a").concurrency()).isZero();
    assertThat(engine.stats("b").concurrency()).isZero();
  }

  @Property(tries = 100)
  void outboundCalls_passEveryThreshold(@ForAll("rules") SystemRule rule) {
    ManualClock clock = new ManualClock();
    FakeSystemStatus status = new FakeSystemStatus().cpuUsage(1).systemLoad(100);
    GuardEngine engine = GuardEngine.builder().clock(clock).systemStatus(status).build();
    engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(rule)));
    List<Entry> held = new ArrayList<>();

    for (int i = 0; i < 20; i++) {
      try {
        held.add(engine.resource("r").entryType(EntryType.OUT).enter());
      } catch (RefusedException refused) {
        throw new AssertionError("an outbound call was refused by " + refused, refused);
      }
    }

    for (int i = held.size() - 1; i >= 0; i--) {
      held.get(i).close();
    }
  }
}
