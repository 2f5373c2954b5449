package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

class StatisticNodeProperties {

  enum Kind {
    PASS,
    REFUSE,
    READ
  }

  /** Advance the clock by {@code gapMs}, then write {@code n} of a kind or read. */
  record Step(int gapMs, int n, Kind kind) {}

  record Event(long timeMs, int n, Kind kind) {}

  @Provide
  Arbitrary<List<Step>> minuteSchedules() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.integers().between(0, 8000),
                Arbitraries.integers().between(1, 5),
                Arbitraries.of(Kind.class))
            .as(Step::new);
    return step.list().ofMaxSize(80);
  }

  @Property
  void minuteTotals_randomSchedule_countEventsOfLastSixtyWholeSeconds(
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 2) long startMs,
      @ForAll("minuteSchedules") List<Step> steps) {
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);
    List<Event> events = new ArrayList<>();
    long now = startMs;
    for (Step step : steps) {
      now += step.gapMs();
      switch (step.kind()) {
        case PASS -> node.addPass(now, step.n());
        case REFUSE -> node.addRefused(now, step.n());
        case READ -> {
          assertThat(node.totalPass(now)).as("totalPass at %d", now)
              .isEqualTo(lastMinute(events, now, Kind.PASS));
          assertThat(node.refusedRequest(now)).as("refusedRequest at %d", now)
              .isEqualTo(lastMinute(events, now, Kind.REFUSE));
        }
      }
      if (step.kind() != Kind.READ) {
        events.add(new Event(now, step.n(), step.kind()));
      }
    }
  }

  @Provide
  Arbitrary<List<Boolean>> matchedGaugeOps() {
    return Arbitraries.integers()
        .between(0, 200)
        .flatMap(
            n -> {
              List<Boolean> ops = new ArrayList<>();
              for (int i = 0; i < n; i++) {
                ops.add(true);
                ops.add(false);
              }
              return Arbitraries.shuffle(ops);
            });
  }

  @Property
  void concurrency_matchedIncreasesAndDecreases_tracksBalanceAndReturnsToZero(
      @ForAll("matchedGaugeOps") List<Boolean> increases) {
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);
    long balance = 0;
    for (boolean increase : increases) {
      if (increase) {
        node.increaseThreads();
        balance++;
      } else {
        node.decreaseThreads();
        balance--;
      }
      assertThat(node.concurrency()).isEqualTo(balance);
    }
    assertThat(node.concurrency()).isZero();
  }

  /** Events whose 1 s bucket is one of the 60 buckets ending with the bucket of {@code t}. */
  private static long lastMinute(List<Event> events, long t, Kind kind) {
    long currentSecond = t - t % 1000;
    long sum = 0;
    for (Event event : events) {
      long second = event.timeMs() - event.timeMs() % 1000;
      if (event.kind() == kind && second > currentSecond - 60_000) {
        sum += event.n();
      }
    }
    return sum;
  }
}
