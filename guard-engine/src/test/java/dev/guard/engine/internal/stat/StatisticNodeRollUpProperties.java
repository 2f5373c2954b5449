package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The minute reads of a {@link StatisticNode}, whose minute window is rolled up from the
 * second-level window, against a naive model: a list of every event with its time.
 */
class StatisticNodeRollUpProperties {

  /** Second-level bucket lengths that divide one second. */
  private static final List<Integer> BUCKET_LENGTHS =
      List.of(1, 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000);

  private static final double THRESHOLD = 20.0;

  enum Kind {
    PASS,
    REFUSE,
    EXCEPTION,
    SUCCESS,
    BORROW,
    CANCEL,
    READ
  }

  /** Advance the clock by {@code gapMs}, then act. */
  record Step(int gapMs, int n, Kind kind) {}

  /** What the model counts: a PASS, BORROW (a borrowed pass), BLOCK, EXCEPTION or SUCCESS. */
  record Event(long timeMs, int n, Kind kind) {}

  record Borrow(long atMs, long arrivalMs, Event event, BorrowPlacement placement) {}

  @Provide
  Arbitrary<WindowGeometry> rollUpGeometries() {
    Arbitrary<Integer> counts =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(1, 12)),
            Tuple.of(1, Arbitraries.integers().between(50, 120)));
    return Combinators.combine(Arbitraries.of(BUCKET_LENGTHS), counts)
        .as((length, count) -> new WindowGeometry(count, count * length));
  }

  @Provide
  Arbitrary<Long> starts() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 5_000), Arbitraries.longs().between(0, Long.MAX_VALUE / 2));
  }

  @Provide
  Arbitrary<List<Step>> schedules() {
    Arbitrary<Integer> gaps =
        Arbitraries.frequencyOf(
            Tuple.of(5, Arbitraries.integers().between(0, 300)),
            Tuple.of(3, Arbitraries.integers().between(0, 3_000)),
            Tuple.of(2, Arbitraries.integers().between(0, 20_000)));
    Arbitrary<Kind> kinds =
        Arbitraries.frequency(
            Tuple.of(4, Kind.PASS),
            Tuple.of(2, Kind.REFUSE),
            Tuple.of(1, Kind.EXCEPTION),
            Tuple.of(2, Kind.SUCCESS),
            Tuple.of(2, Kind.BORROW),
            Tuple.of(1, Kind.CANCEL),
            Tuple.of(3, Kind.READ));
    return Combinators.combine(gaps, Arbitraries.integers().between(1, 5), kinds)
        .as(Step::new)
        .list()
        .ofMinSize(40)
        .ofMaxSize(150);
  }

  @Property(tries = 500)
  void minuteReads_randomScheduleAcrossRollUps_matchNaiveModel(
      @ForAll("rollUpGeometries") WindowGeometry geometry,
      @ForAll("starts") long startMs,
      @ForAll("schedules") List<Step> steps) {
    StatisticNode node = new StatisticNode(geometry);
    List<Event> events = new ArrayList<>();
    Deque<Borrow> borrows = new ArrayDeque<>();
    long now = startMs;
    int cancels = 0;
    for (Step step : steps) {
      now += step.gapMs();
      if (step.kind() == Kind.CANCEL && !borrows.isEmpty()) {
        cancels++;
      }
      if (step.kind() == Kind.READ) {
        assertMinuteReads(node, events, now);
        node.passQps(now); // resets (and rolls up) the slot of now
        assertMinuteReads(node, events, now);
      } else {
        apply(node, step, now, events, borrows);
      }
    }
    Statistics.label("borrows kept")
        .collect(events.stream().anyMatch(event -> event.kind() == Kind.BORROW));
    Statistics.label("borrows cancelled").collect(cancels > 0);
    Statistics.label("schedule spans a minute").collect(now - startMs > 60_000);
    for (int i = 0; i <= 10; i++) { // sweep on past the minute so that old seconds leave it
      now += 7_000;
      node.passQps(now);
      assertMinuteReads(node, events, now);
    }
  }

  private static void apply(
      StatisticNode node, Step step, long now, List<Event> events, Deque<Borrow> borrows) {
    int n = step.n();
    switch (step.kind()) {
      case PASS -> node.addPass(now, n);
      case REFUSE -> node.addRefused(now, n);
      case EXCEPTION -> node.addException(now, n);
      case SUCCESS -> node.addRtAndSuccess(now, 7, n);
      case BORROW -> {
        long timeout = node.secondGeometry().intervalMs();
        long wait = node.tryOccupyNext(now, n, THRESHOLD, timeout);
        if (wait < timeout) {
          BorrowPlacement placement = node.addWaiting(now + wait, n);
          node.addOccupiedPass(now, n);
          Event borrowed = new Event(now, n, Kind.BORROW);
          events.add(borrowed);
          borrows.push(new Borrow(now, now + wait, borrowed, placement));
        }
        return;
      }
      case CANCEL -> {
        Borrow last = borrows.poll();
        if (last != null) {
          node.cancelWaiting(last.atMs(), last.arrivalMs(), last.event().n(), last.placement());
          events.remove(last.event());
        }
        return;
      }
      case READ -> throw new AssertionError("reads are not applied");
    }
    events.add(new Event(now, n, step.kind()));
  }

  private static void assertMinuteReads(StatisticNode node, List<Event> events, long now) {
    long pass = lastMinute(events, now, Kind.PASS) + lastMinute(events, now, Kind.BORROW);
    long refused = lastMinute(events, now, Kind.REFUSE);
    assertThat(node.totalPass(now)).as("totalPass at %d", now).isEqualTo(pass);
    assertThat(node.refusedRequest(now)).as("refusedRequest at %d", now).isEqualTo(refused);
    assertThat(node.totalRequest(now)).as("totalRequest at %d", now).isEqualTo(pass + refused);
    assertThat(node.totalSuccess(now)).as("totalSuccess at %d", now)
        .isEqualTo(lastMinute(events, now, Kind.SUCCESS));
    assertThat(node.totalException(now)).as("totalException at %d", now)
        .isEqualTo(lastMinute(events, now, Kind.EXCEPTION));
    assertThat(node.previousPassQps(now)).as("previousPassQps at %d", now)
        .isEqualTo((double) (previousSecond(events, now, Kind.PASS)
            + previousSecond(events, now, Kind.BORROW)));
    assertThat(node.previousRefusedQps(now)).as("previousRefusedQps at %d", now)
        .isEqualTo((double) previousSecond(events, now, Kind.REFUSE));
  }

  /** Events whose 1 s bucket is one of the 60 buckets ending with the bucket of {@code t}. */
  private static long lastMinute(List<Event> events, long t, Kind kind) {
    long currentSecond = t - t % 1000;
    return sumOf(events, kind, currentSecond - 59_000, currentSecond);
  }

  /** Events of the whole second before the second of {@code t}. */
  private static long previousSecond(List<Event> events, long t, Kind kind) {
    long previous = t - t % 1000 - 1000;
    return previous < 0 ? 0 : sumOf(events, kind, previous, previous);
  }

  private static long sumOf(List<Event> events, Kind kind, long firstSecond, long lastSecond) {
    long sum = 0;
    for (Event event : events) {
      long second = event.timeMs() - event.timeMs() % 1000;
      if (event.kind() == kind && second >= firstSecond && second <= lastSecond) {
        sum += event.n();
      }
    }
    return sum;
  }
}
