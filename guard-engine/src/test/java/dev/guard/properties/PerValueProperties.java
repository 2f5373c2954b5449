package dev.guard.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * Per-value limits over generated arrivals of several values, through the engine on a manual
 * clock started anywhere: each value's token bucket decides exactly as the formula in
 * docs/BEHAVIOUR.md and never admits more than {@code count + burst} in its first period nor more
 * than {@code count + burst + ⌊elapsed · count / period⌋} in total; a value used often enough to
 * stay remembered is never reset by other values flooding the table; paced values keep their
 * spacing; per-value concurrency counts never exceed the limit and return to zero.
 */
class PerValueProperties {

  /** One call: the gap before it and which value it carries. */
  record Arrival(long gapMs, int value) {}

  @Provide
  Arbitrary<List<Arrival>> arrivals() {
    Arbitrary<Long> gaps = Arbitraries.frequencyOf(
        Tuple.of(5, Arbitraries.just(0L)),
        Tuple.of(3, Arbitraries.longs().between(0, 400)),
        Tuple.of(1, Arbitraries.longs().between(0, 5_000)));
    return Combinators.combine(gaps, Arbitraries.integers().between(0, 3))
        .as(Arrival::new).list().ofMaxSize(150);
  }

  @Provide
  Arbitrary<Duration> periods() {
    return Arbitraries.of(1L, 7L, 250L, 1000L, 3000L).map(Duration::ofMillis);
  }

  /** The reference token bucket of one value, in engine milliseconds. */
  private static final class Bucket {
    long lastRefill;
    long tokens;

    static boolean admit(Map<Integer, Bucket> buckets, int value, long now, long count, long burst,
        long periodMs) {
      long max = count + burst;
      if (count == 0) {
        return false;
      }
      Bucket bucket = buckets.get(value);
      if (bucket == null) {
        bucket = new Bucket();
        bucket.lastRefill = now;
        bucket.tokens = max - 1;
        buckets.put(value, bucket);
        return true;
      }
      long elapsed = now - bucket.lastRefill;
      if (elapsed > periodMs) {
        long earned = elapsed * count / periodMs;
        long left = earned + bucket.tokens > max ? max - 1 : bucket.tokens + earned - 1;
        if (left < 0) {
          return false;
        }
        bucket.tokens = left;
        bucket.lastRefill = now;
        return true;
      }
      if (bucket.tokens < 1) {
        return false;
      }
      bucket.tokens--;
      return true;
    }
  }

  private static boolean call(GuardedResource resource, Object value) {
    try (Entry ignored = resource.enter(value)) {
      return true;
    } catch (RefusedException refused) {
      return false;
    }
  }

  @Property(tries = 200)
  void tokenBucket_decidesAsTheFormula_andStaysWithinItsBounds(
      @ForAll @IntRange(min = 0, max = 6) int count,
      @ForAll @IntRange(min = 0, max = 4) int burst,
      @ForAll("periods") Duration period,
      @ForAll("clockStarts") long start,
      @ForAll("arrivals") List<Arrival> arrivals) {
    ManualClock clock = ManualClock.startingAt(start);
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(PerValueRule.qps("R", 0, count).withBurst(burst)
        .withPeriod(period))));
    GuardedResource resource = engine.resource("R").entryType(EntryType.IN);
    long periodMs = period.toMillis();
    Map<Integer, Bucket> model = new HashMap<>();
    Map<Integer, List<Long>> admitted = new HashMap<>();
    long now = 0;
    for (Arrival arrival : arrivals) {
      clock.advanceMillis(arrival.gapMs());
      now += arrival.gapMs();
      boolean expected = Bucket.admit(model, arrival.value(), now, count, burst, periodMs);
      assertThat(call(resource, "v" + arrival.value())).as("value %d at %d ms", arrival.value(), now)
          .isEqualTo(expected);
      if (expected) {
        admitted.computeIfAbsent(arrival.value(), v -> new ArrayList<>()).add(now);
      }
    }
    for (List<Long> times : admitted.values()) {
      long first = times.get(0);
      long inFirstPeriod = times.stream().filter(t -> t - first <= periodMs).count();
      assertThat(inFirstPeriod).isLessThanOrEqualTo(count + burst);
      for (int i = 0; i < times.size(); i++) {
        long bound = count + burst + (times.get(i) - first) * count / periodMs;
        assertThat(i + 1L).as("admitted by %d ms", times.get(i) - first).isLessThanOrEqualTo(bound);
      }
    }
  }

  @Provide
  Arbitrary<Long> clockStarts() {
    return ClockStarts.any();
  }

  @Provide
  Arbitrary<List<Integer>> noiseRuns() {
    return Arbitraries.integers().between(0, 40).list().ofMaxSize(80);
  }

  @Property(tries = 150)
  void rememberedValue_isNeverResetByOtherValues(
      @ForAll @IntRange(min = 1, max = 20) int halfBound,
      @ForAll @IntRange(min = 1, max = 3) int count,
      @ForAll("noiseRuns") List<Integer> noise,
      @ForAll @IntRange(min = 0, max = 600) int gapMs) {
    int maxValues = 2 * halfBound;
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(PerValueRule.qps("R", 0, count).withMaxValues(maxValues))));
    GuardedResource resource = engine.resource("R").entryType(EntryType.IN);
    Map<Integer, Bucket> model = new HashMap<>();
    int fresh = 0;
    long now = 0;
    for (int run : noise) {
      boolean expected = Bucket.admit(model, -1, now, count, 0, 1000);
      assertThat(call(resource, "hot")).as("hot at %d ms", now).isEqualTo(expected);
      // fewer than maxValues / 2 new values between two uses: hot stays remembered
      for (int i = 0; i < Math.min(run, halfBound - 1); i++) {
        call(resource, "noise-" + fresh++);
      }
      clock.advanceMillis(gapMs);
      now += gapMs;
    }
  }

  @Property(tries = 150)
  void pacing_keepsEachValuesCallsApart_andWaitsWithinTheQueue(
      @ForAll @IntRange(min = 1, max = 20) int count,
      @ForAll @IntRange(min = 0, max = 400) int maxQueueingMs,
      @ForAll("arrivals") List<Arrival> arrivals) {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(PerValueRule.qps("R", 0, count)
        .withPacing(Duration.ofMillis(maxQueueingMs)))));
    GuardedResource resource = engine.resource("R").entryType(EntryType.IN);
    long cost = Math.round(1e9 / count);
    Map<Integer, Long> lastSlot = new HashMap<>();
    for (Arrival arrival : arrivals) {
      clock.advanceMillis(arrival.gapMs());
      long decided = clock.nanoTime();
      if (call(resource, arrival.value())) {
        long admittedAt = clock.nanoTime(); // the manual clock advanced by the wait
        assertThat(admittedAt - decided).isLessThanOrEqualTo(maxQueueingMs * 1_000_000L);
        Long previous = lastSlot.put(arrival.value(), admittedAt);
        if (previous != null) {
          assertThat(admittedAt - previous).isGreaterThanOrEqualTo(cost);
        }
      }
    }
  }

  enum Op { ENTER_A, ENTER_B, ENTER_AB, ENTER_AA, CLOSE_LAST, CLOSE_FIRST }

  @Provide
  Arbitrary<List<Op>> ops() {
    return Arbitraries.of(Op.class).list().ofMaxSize(60);
  }

  @Property(tries = 200)
  void concurrency_neverExceedsTheLimit_andCountsReturnToZero(
      @ForAll @IntRange(min = 0, max = 3) int limit,
      @ForAll("ops") List<Op> ops) {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(PerValueRule.concurrency("R", 0, limit))));
    GuardedResource resource = engine.resource("R").entryType(EntryType.IN);
    List<Entry> open = new ArrayList<>();
    List<List<String>> openValues = new ArrayList<>();
    Map<String, Integer> running = new HashMap<>();
    for (Op op : ops) {
      switch (op) {
        case CLOSE_LAST, CLOSE_FIRST -> {
          if (!open.isEmpty()) {
            int at = op == Op.CLOSE_LAST ? open.size() - 1 : 0;
            closeAll(open.subList(at, open.size()), openValues.subList(at, open.size()), running);
          }
        }
        default -> {
          List<String> values = switch (op) {
            case ENTER_A -> List.of("a");
            case ENTER_B -> List.of("b");
            case ENTER_AB -> List.of("a", "b");
            default -> List.of("a", "a");
          };
          Map<String, Integer> after = new HashMap<>(running);
          values.forEach(v -> after.merge(v, 1, Integer::sum));
          boolean expected = after.values().stream().allMatch(n -> n <= limit);
          try {
            open.add(resource.enter(values.size() == 1 ? values.get(0) : values));
            openValues.add(values);
            assertThat(expected).as("admitted %s with %s running", values, running).isTrue();
            running.clear();
            running.putAll(after);
          } catch (RefusedException refused) {
            assertThat(expected).as("refused %s with %s running", values, running).isFalse();
          }
        }
      }
    }
    closeAll(open, openValues, running);
    assertThat(engine.stats("R").concurrency()).isZero();
    for (int i = 0; i < limit; i++) {
      open.add(resource.enter(List.of("a", "b")));
    }
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** Closes entries (newest first, as their context requires) and updates the model. */
  private static void closeAll(List<Entry> entries, List<List<String>> values,
      Map<String, Integer> running) {
    for (int i = entries.size() - 1; i >= 0; i--) {
      entries.get(i).close();
      values.get(i).forEach(v -> running.merge(v, -1, Integer::sum));
    }
    entries.clear();
    values.clear();
  }
}
