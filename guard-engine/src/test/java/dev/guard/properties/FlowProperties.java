package dev.guard.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * QPS admission never exceeds the limit within the window the engine measures (the current bucket
 * plus the previous buckets of the second window), and decisions do not depend on the clock's
 * origin.
 */
class FlowProperties {

  @Property(tries = 200)
  void qps_neverAdmitsMoreThanCountWithinOneMeasuredWindow(
      @ForAll("bucketCounts") int buckets,
      @ForAll @IntRange(min = 1, max = 20) int count,
      @ForAll @Size(min = 1, max = 300) List<@IntRange(min = 0, max = 120) Integer> gapsMs) {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock)
        .secondWindow(buckets, Duration.ofSeconds(1)).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", count))));
    long bucketMs = 1000 / buckets;
    List<Long> admitted = new ArrayList<>();
    long now = 0;
    for (int gap : gapsMs) {
      clock.advanceMillis(gap);
      now += gap;
      if (attempt(engine)) {
        admitted.add(now);
        long windowStart = now - now % bucketMs - (buckets - 1) * bucketMs;
        long inWindow = admitted.stream().filter(t -> t >= windowStart).count();
        assertThat(inWindow).as("passes in the window ending at %d ms", now).isLessThanOrEqualTo(count);
      }
    }
  }

  @Property(tries = 100)
  void decisions_doNotDependOnTheClockOrigin(
      @ForAll("origins") long originNanos,
      @ForAll @IntRange(min = 1, max = 10) int count,
      @ForAll @Size(min = 1, max = 200) List<@IntRange(min = 0, max = 400) Integer> gapsMs) {
    assertThat(outcomes(ManualClock.startingAt(originNanos), count, gapsMs))
        .isEqualTo(outcomes(new ManualClock(), count, gapsMs));
  }

  @Provide
  Arbitrary<Integer> bucketCounts() {
    return Arbitraries.of(1, 2, 4, 5, 10, 20);
  }

  @Provide
  Arbitrary<Long> origins() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(Long.MAX_VALUE - 5_000_000_000L, Long.MAX_VALUE),
        Arbitraries.longs().between(Long.MIN_VALUE, Long.MIN_VALUE + 5_000_000_000L),
        Arbitraries.longs().between(-5_000_000_000L, 0),
        Arbitraries.longs());
  }

  private static String outcomes(ManualClock clock, int count, List<Integer> gapsMs) {
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", count))));
    StringBuilder results = new StringBuilder();
    for (int gap : gapsMs) {
      clock.advanceMillis(gap);
      results.append(attempt(engine) ? 'P' : 'B');
    }
    return results.toString();
  }

  private static boolean attempt(GuardEngine engine) {
    try (Entry ignored = engine.resource("R").enter()) {
      return true;
    } catch (RefusedException refused) {
      return false;
    }
  }
}
