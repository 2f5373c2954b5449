package dev.guard.engine.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Pacing invariants for {@link PacingController} and {@link PacingController}: consecutive
 * admitted calls (admission time = decision time + wait) are never closer than {@code 1 / count}
 * (within 1 ns of rounding), and no admitted call waits longer than {@code maxQueueingTime}; also
 * when several simulated threads decide at the same instant or on stale clock readings.
 */
class PacingProperties {

  private static final long MS = ShapingDriver.NANOS_PER_MS;

  /** A burst of simultaneous calls {@code gapNanos} after the previous burst. */
  record Burst(long gapNanos, int calls) {}

  /**
   * One step of several threads: the global clock advances, thread {@code thread} decides on its
   * last clock reading (possibly stale, possibly shared with other threads), then maybe re-reads.
   */
  record Step(int thread, long advanceNanos, boolean reread) {}

  @Provide
  Arbitrary<List<Burst>> bursts() {
    Arbitrary<Long> gaps = Arbitraries.oneOf(
        Arbitraries.longs().between(0, 2 * MS),
        Arbitraries.longs().between(0, 3_000 * MS));
    return Combinators.combine(gaps, Arbitraries.integers().between(1, 8))
        .as(Burst::new)
        .list()
        .ofMaxSize(80);
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Long> advances = Arbitraries.oneOf(
        Arbitraries.just(0L),
        Arbitraries.longs().between(0, 2 * MS),
        Arbitraries.longs().between(0, 1_000 * MS));
    return Combinators.combine(
            Arbitraries.integers().between(0, 3), advances, Arbitraries.of(true, false))
        .as(Step::new)
        .list()
        .ofMaxSize(300);
  }

  @Property
  void pacing_anyBursts_spacedAndWithinQueueBound(
      @ForAll @DoubleRange(min = 0.1, max = 5000) double count,
      @ForAll @LongRange(min = 0, max = 3000) long maxQueueingMs,
      @ForAll("bursts") List<Burst> bursts,
      @ForAll @LongRange(min = 0, max = 1L << 50) long startNanos) {
    ShapingDriver driver =
        new ShapingDriver(TestControllers.pacing(count, Duration.ofMillis(maxQueueingMs)));

    assertSpacedAndBounded(runBursts(driver, bursts, startNanos), count, maxQueueingMs);
  }

  @Property
  void warmUpPacing_anyBursts_spacedAndWithinQueueBound(
      @ForAll @DoubleRange(min = 0.1, max = 5000) double count,
      @ForAll @IntRange(min = 0, max = 20) int periodSeconds,
      @ForAll @IntRange(min = 2, max = 6) int coldFactor,
      @ForAll @LongRange(min = 0, max = 3000) long maxQueueingMs,
      @ForAll("bursts") List<Burst> bursts,
      @ForAll @LongRange(min = 0, max = 1L << 50) long startNanos) {
    ShapingDriver driver = new ShapingDriver(TestControllers.warmUpPacing(
        count, Duration.ofSeconds(periodSeconds), coldFactor, Duration.ofMillis(maxQueueingMs)));

    assertSpacedAndBounded(runBursts(driver, bursts, startNanos), count, maxQueueingMs);
  }

  @Property
  void pacing_interleavedThreads_spacedAndWithinQueueBound(
      @ForAll @DoubleRange(min = 0.1, max = 5000) double count,
      @ForAll @LongRange(min = 0, max = 3000) long maxQueueingMs,
      @ForAll("steps") List<Step> steps,
      @ForAll @LongRange(min = 0, max = 1L << 50) long startNanos) {
    ShapingDriver driver =
        new ShapingDriver(TestControllers.pacing(count, Duration.ofMillis(maxQueueingMs)));

    assertSpacedAndBounded(runThreads(driver, steps, startNanos), count, maxQueueingMs);
  }

  @Property
  void warmUpPacing_interleavedThreads_spacedAndWithinQueueBound(
      @ForAll @DoubleRange(min = 0.1, max = 5000) double count,
      @ForAll @IntRange(min = 2, max = 6) int coldFactor,
      @ForAll @LongRange(min = 0, max = 3000) long maxQueueingMs,
      @ForAll("steps") List<Step> steps,
      @ForAll @LongRange(min = 0, max = 1L << 50) long startNanos) {
    ShapingDriver driver = new ShapingDriver(TestControllers.warmUpPacing(
        count, Duration.ofSeconds(5), coldFactor, Duration.ofMillis(maxQueueingMs)));

    assertSpacedAndBounded(runThreads(driver, steps, startNanos), count, maxQueueingMs);
  }

  /** Returns {decision time, wait} of every admitted call. */
  private static List<long[]> runBursts(ShapingDriver driver, List<Burst> bursts, long start) {
    List<long[]> admitted = new ArrayList<>();
    long now = start;
    for (Burst burst : bursts) {
      now += burst.gapNanos();
      for (int i = 0; i < burst.calls(); i++) {
        record(admitted, now, driver.call(now, 1));
      }
    }
    return admitted;
  }

  private static List<long[]> runThreads(ShapingDriver driver, List<Step> steps, long start) {
    List<long[]> admitted = new ArrayList<>();
    long clock = start;
    long[] readings = {start, start, start, start};
    for (Step step : steps) {
      clock += step.advanceNanos();
      long now = readings[step.thread()];
      record(admitted, now, driver.call(now, 1));
      if (step.reread()) {
        readings[step.thread()] = clock;
      }
    }
    return admitted;
  }

  private static void record(List<long[]> admitted, long now, long decision) {
    if (Decision.admits(decision)) {
      admitted.add(new long[] {now, Decision.waitNanos(decision)});
    }
  }

  private static void assertSpacedAndBounded(List<long[]> admitted, double count, long maxMs) {
    List<Long> admissionTimes = new ArrayList<>();
    for (long[] call : admitted) {
      assertThat(call[1]).as("wait").isBetween(0L, maxMs * MS);
      admissionTimes.add(call[0] + call[1]);
    }
    Collections.sort(admissionTimes);
    double minSpacing = 1e9 / count - 1;
    for (int i = 1; i < admissionTimes.size(); i++) {
      long spacing = admissionTimes.get(i) - admissionTimes.get(i - 1);
      assertThat((double) spacing).as("spacing of call %d", i).isGreaterThanOrEqualTo(minSpacing);
    }
  }
}
