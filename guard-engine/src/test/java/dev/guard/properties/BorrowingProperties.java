package dev.guard.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.Entry;
import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TimeSource;
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
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Prioritized calls borrowing under a QPS rule, with a circuit breaker after it that is opened and
 * closed at generated times, so that borrowing calls are refused after their wait and give their
 * pass back (docs/BEHAVIOUR.md, "Flow rules"). Waits are recorded, not performed, so calls made at
 * the same clock reading are simultaneous calls of several threads: one may be refused at its
 * admission, starting the borrowed bucket, before another borrows from that bucket. Whatever the
 * interleaving and the clock's origin, the pass rate never reads below zero, and the calls admitted
 * in any window the engine measures (normal ones when they enter, borrowing ones when their wait
 * ends) never exceed the rule.
 */
class BorrowingProperties {

  enum Kind {
    NORMAL,
    PRIORITIZED,
    OPEN,
    CLOSE
  }

  record Step(int gapMs, Kind kind) {}

  @Provide
  Arbitrary<Long> origins() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(Long.MAX_VALUE - 5_000_000_000L, Long.MAX_VALUE),
        Arbitraries.longs().between(-5_000_000_000L, 0),
        Arbitraries.longs());
  }

  @Provide
  Arbitrary<List<Step>> schedules() {
    Arbitrary<Integer> gaps = Arbitraries.frequencyOf(
        Tuple.of(5, Arbitraries.just(0)),
        Tuple.of(5, Arbitraries.integers().between(1, 400)),
        Tuple.of(1, Arbitraries.integers().between(400, 2_000)));
    Arbitrary<Kind> kinds = Arbitraries.frequency(
        Tuple.of(4, Kind.NORMAL), Tuple.of(5, Kind.PRIORITIZED), Tuple.of(1, Kind.OPEN),
        Tuple.of(1, Kind.CLOSE));
    return Combinators.combine(gaps, kinds).as(Step::new).list().ofMinSize(5).ofMaxSize(80);
  }

  @Property(tries = 300)
  void prioritizedCallsRefusedAfterTheirWait_neverPushTheRuleOverItsCount(
      @ForAll("origins") long originNanos,
      @ForAll @IntRange(min = 1, max = 3) int count,
      @ForAll("schedules") List<Step> steps) {
    ManualClock clock = ManualClock.startingAt(originNanos);
    List<Long> sleeps = new ArrayList<>();
    GuardEngine engine = GuardEngine.builder().clock(new TimeSource() {
      @Override
      public long nanoTime() {
        return clock.nanoTime();
      }

      @Override
      public void sleep(long nanos) {
        sleeps.add(nanos);
      }
    }).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", count),
        new CircuitBreakerRule("R", CircuitBreakerRule.Strategy.ERROR_COUNT, 1, null, 1,
            Duration.ofSeconds(10), 1, Duration.ofSeconds(1), 1, null))));
    CircuitBreaker breaker = engine.breakers("R").get(0);
    List<Long> admitted = new ArrayList<>();
    long nowMs = 0; // engine time: the clock since the engine was built
    int refusedAfterWait = 0;
    for (Step step : steps) {
      clock.advanceMillis(step.gapMs());
      nowMs += step.gapMs();
      switch (step.kind()) {
        case NORMAL -> {
          if (enter(engine, false)) {
            admitted.add(nowMs);
          }
        }
        case PRIORITIZED -> {
          sleeps.clear();
          boolean passed = enter(engine, true);
          long waitedMs = sleeps.stream().mapToLong(Long::longValue).sum() / 1_000_000L;
          if (passed) {
            admitted.add(nowMs + waitedMs);
          } else if (waitedMs > 0) {
            refusedAfterWait++;
          }
        }
        case OPEN -> breaker.forceOpen();
        case CLOSE -> breaker.forceClosed();
      }
      assertThat(engine.stats("R").passQps()).as("pass rate at %d ms", nowMs).isNotNegative();
    }
    Statistics.label("refused after their wait").collect(refusedAfterWait > 1 ? "2+" : refusedAfterWait);
    for (long at : admitted) {
      long bucket = at - at % 500;
      for (long from = bucket - 500; from <= bucket; from += 500) {
        long start = from;
        long inWindow = admitted.stream().filter(t -> t >= start && t < start + 1000).count();
        assertThat(inWindow).as("calls admitted in [%d, %d + 1000): %s", start, start, admitted)
            .isLessThanOrEqualTo(count);
      }
    }
  }

  private static boolean enter(GuardEngine engine, boolean prioritized) {
    var call = engine.resource("R").entryType(EntryType.IN).permits(1);
    try (Entry ignored = (prioritized ? call.prioritized() : call).enter()) {
      return true;
    } catch (RefusedException refused) {
      return false;
    }
  }
}
