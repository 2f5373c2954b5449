package dev.guard.properties;

import static org.assertj.core.api.Assertions.assertThat;
import dev.guard.api.rule.FlowRule;

import dev.guard.api.RefusedException;
import dev.guard.spi.TimeSource;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
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
import net.jqwik.api.constraints.IntRange;

/**
 * Traffic shaping through the engine, over generated rules, arrival schedules and clock origins.
 * Waits are recorded rather than performed, so calls arriving together are decided at one clock
 * value, as concurrent callers would be; an admitted call goes through at its decision time plus
 * its wait.
 */
class ShapingProperties {

  /** Calls arriving {@code gapMs} after the previous arrivals, {@code size} of them at once. */
  record Arrival(int gapMs, int size) {}

  /** An engine on a manual clock whose waits are recorded, not performed. */
  private static final class Recorded {
    final ManualClock clock;
    final GuardEngine engine;
    long lastWait;

    Recorded(long originNanos) {
      clock = ManualClock.startingAt(originNanos);
      TimeSource deciding = new TimeSource() {
        @Override
        public long nanoTime() {
          return clock.nanoTime();
        }

        @Override
        public void sleep(long nanos) {
          lastWait = nanos;
        }
      };
      engine = GuardEngine.builder().clock(deciding).build();
    }

    /** One call to R; its wait in nanoseconds when admitted, -1 when refused. */
    long call() {
      lastWait = 0;
      try (Entry ignored = engine.resource("R").enter()) {
        return lastWait;
      } catch (RefusedException refused) {
        return -1;
      }
    }
  }

  @Provide
  Arbitrary<Long> origins() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(Long.MAX_VALUE - 5_000_000_000L, Long.MAX_VALUE),
        Arbitraries.longs().between(-5_000_000_000L, 0),
        Arbitraries.longs());
  }

  @Provide
  Arbitrary<Double> counts() {
    return Arbitraries.oneOf(
        Arbitraries.doubles().between(0.1, 5).ofScale(2),
        Arbitraries.integers().between(1, 100).map(Integer::doubleValue),
        Arbitraries.doubles().between(100, 5000).ofScale(1));
  }

  @Provide
  Arbitrary<List<Arrival>> arrivals() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 400), Arbitraries.integers().between(1, 6))
        .as(Arrival::new).list().ofMinSize(1).ofMaxSize(80);
  }

  @Property(tries = 300)
  void pacing_admittedCalls_neverCloserThanSpacingAndNeverWaitLongerThanQueue(
      @ForAll("counts") double count,
      @ForAll @IntRange(min = 0, max = 3000) int maxQueueingMs,
      @ForAll("arrivals") List<Arrival> arrivals,
      @ForAll("origins") long origin) {
    Recorded r = new Recorded(origin);
    r.engine.apply(r.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", count).withShaping(FlowRule.Shaping.PACING)
        .withMaxQueueingTime(Duration.ofMillis(maxQueueingMs)))));
    long start = r.clock.nanoTime();
    List<Long> admittedAt = new ArrayList<>();
    for (Arrival arrival : arrivals) {
      r.clock.advanceMillis(arrival.gapMs());
      for (int i = 0; i < arrival.size(); i++) {
        long wait = r.call();
        if (wait >= 0) {
          assertThat(wait).as("wait of an admitted call").isBetween(0L, maxQueueingMs * 1_000_000L);
          admittedAt.add(r.clock.nanoTime() - start + wait);
        }
      }
    }
    admittedAt.sort(null);
    assertThat(admittedAt).as("the first call always passes").isNotEmpty();
    double spacingNanos = 1e9 / count;
    for (int i = 1; i < admittedAt.size(); i++) {
      long gap = admittedAt.get(i) - admittedAt.get(i - 1);
      assertThat((double) gap).as("gap between admissions %d and %d of %s", i - 1, i, admittedAt)
          .isGreaterThanOrEqualTo(spacingNanos - 0.5); // cost rounded to whole nanoseconds
    }
  }

  /**
   * Constant overload of a warm-up rule whose cold rate is at least one call per second: the
   * admitted count per second never falls until it reaches {@code count}, reaches it within
   * {@code 2·period + 3} seconds and then stays there. (For {@code count < coldFactor}, see the
   * controller-level WarmUpProperties.)
   */
  @Property(tries = 200)
  void warmUp_constantOverload_passesPerSecondNeverFallUntilCount(
      @ForAll @IntRange(min = 2, max = 6) int coldFactor,
      @ForAll @IntRange(min = 0, max = 200) int countAboveFactor,
      @ForAll @IntRange(min = 1, max = 20) int periodSeconds,
      @ForAll @IntRange(min = 1, max = 20) int excess,
      @ForAll @IntRange(min = 0, max = 999) int phaseMs,
      @ForAll("origins") long origin) {
    int count = coldFactor + countAboveFactor;
    Recorded r = new Recorded(origin);
    r.engine.apply(r.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", count).withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(10)))
        .withWarmUp(Duration.ofSeconds(periodSeconds), coldFactor))));
    r.clock.advanceMillis(60_000 + phaseMs);
    int bound = 2 * periodSeconds + 3;

    List<Integer> perSecond = new ArrayList<>();
    for (int k = 0; k < bound + 3; k++) {
      int passed = 0;
      for (int i = 0; i < count + excess; i++) {
        passed += r.call() >= 0 ? 1 : 0;
      }
      perSecond.add(passed);
      r.clock.advanceMillis(1000);
    }

    int reachedAt = perSecond.indexOf(count);
    assertThat(reachedAt).as("second reaching %d in %s", count, perSecond)
        .isBetween(0, bound);
    assertThat(perSecond.subList(reachedAt, perSecond.size())).as("after reaching count")
        .containsOnly(count);
    for (int k = 1; k <= reachedAt; k++) {
      assertThat(perSecond.get(k)).as("second %d of %s", k, perSecond)
          .isGreaterThanOrEqualTo(perSecond.get(k - 1));
    }
    assertThat(perSecond.get(0)).as("cold start in %s", perSecond).isPositive();
  }
}
