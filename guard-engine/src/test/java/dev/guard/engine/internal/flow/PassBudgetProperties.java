package dev.guard.engine.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * A budgeted QPS rule ({@link PassBudget}) decides exactly like reading the window on every call
 * when one thread decides: the same calls, driven through two controllers on two nodes, get the
 * same decisions, for any count (fractional too), permits, gaps between calls and refunds, and for
 * prioritized calls that may borrow; likewise for a warming rule, whose rate changes every second.
 * Geometries other than one second fall back to reading.
 */
class PassBudgetProperties {

  private static final long MS = 1_000_000L;

  /** One call: the gap before it, its permits, and whether a later rule refuses it. */
  record Call(long gapMs, int permits, boolean refusedLater, boolean prioritized) {}

  @Provide
  Arbitrary<List<Call>> calls() {
    Arbitrary<Long> gaps = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(0L)),
        Tuple.of(3, Arbitraries.longs().between(0, 300)),
        Tuple.of(1, Arbitraries.longs().between(0, 3_000)));
    return Combinators.combine(
            gaps,
            Arbitraries.integers().between(0, 3),
            Arbitraries.of(false, false, false, true),
            Arbitraries.of(false, false, false, true))
        .as(Call::new)
        .list()
        .ofMaxSize(400);
  }

  @Provide
  Arbitrary<WindowGeometry> geometries() {
    return Arbitraries.of(
        WindowGeometry.SECOND_DEFAULT,
        new WindowGeometry(1, 1000),
        new WindowGeometry(4, 1000),
        new WindowGeometry(10, 1000),
        new WindowGeometry(4, 2000));
  }

  @Property
  void budgetedDecisions_equalReadingTheWindowPerCall(
      @ForAll("calls") List<Call> calls,
      @ForAll @DoubleRange(min = 0, max = 40) double count,
      @ForAll("geometries") WindowGeometry geometry,
      @ForAll long startMs) {
    long origin = Math.floorMod(startMs, 1_000_000_000L);
    Driver budgeted = new Driver(TestControllers.reject(count, true), geometry);
    Driver reading = new Driver(TestControllers.reject(count, false), geometry);

    long now = origin;
    List<Long> budgetedDecisions = new ArrayList<>();
    List<Long> readingDecisions = new ArrayList<>();
    for (Call call : calls) {
      now += call.gapMs();
      budgetedDecisions.add(budgeted.decide(call, now));
      readingDecisions.add(reading.decide(call, now));
    }

    assertThat(budgetedDecisions).isEqualTo(readingDecisions);
    assertThat(budgeted.node.totalPass(now)).isEqualTo(reading.node.totalPass(now));
  }

  @Property
  void budgetedWarmUpDecisions_equalReadingTheWindowPerCall(
      @ForAll("calls") List<Call> calls,
      @ForAll @DoubleRange(min = 0, max = 40) double count,
      @ForAll @IntRange(min = 0, max = 5) int periodSeconds,
      @ForAll @IntRange(min = 2, max = 5) int coldFactor,
      @ForAll("geometries") WindowGeometry geometry,
      @ForAll long startMs) {
    long origin = Math.floorMod(startMs, 1_000_000_000L);
    Duration period = Duration.ofSeconds(periodSeconds);
    Driver budgeted = new Driver(TestControllers.warmUp(count, period, coldFactor, true), geometry);
    Driver reading = new Driver(TestControllers.warmUp(count, period, coldFactor, false), geometry);

    long now = origin;
    for (Call call : calls) {
      now += call.gapMs();
      assertThat(budgeted.decide(call, now)).as("at %d ms: %s", now, call)
          .isEqualTo(reading.decide(call, now));
    }
    assertThat(budgeted.node.totalPass(now)).isEqualTo(reading.node.totalPass(now));
  }

  /** Decides calls as the flow slot and the engine would, recording what an admission records. */
  private static final class Driver {
    final TrafficShapingController controller;
    final StatisticNode node;

    Driver(TrafficShapingController controller, WindowGeometry geometry) {
      this.controller = controller;
      this.node = new StatisticNode(geometry);
    }

    long decide(Call call, long nowMs) {
      long decision =
          controller.decide(node, call.permits(), call.prioritized(), nowMs * MS, nowMs);
      if (decision == Decision.PASS && call.refusedLater()) {
        controller.refund(call.permits(), nowMs);
        return Decision.REFUSE;
      }
      if (Decision.borrowed(decision)) {
        long admittedAtMs = nowMs + Decision.waitNanos(decision) / MS;
        node.addWaiting(admittedAtMs, call.permits());
        node.addOccupiedPass(nowMs, call.permits());
      } else if (decision == Decision.PASS) {
        node.addPass(nowMs, call.permits());
      }
      return decision;
    }
  }
}
