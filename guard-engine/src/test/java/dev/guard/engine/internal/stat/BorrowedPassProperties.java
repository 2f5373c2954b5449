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
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Borrowing, admitting and cancelling on one {@link OccupiableBucketRing}, interleaved as the
 * calls of several threads may interleave (docs/BEHAVIOUR.md, "Flow rules"): a prioritized call
 * refused at the time it read may be delayed (less than a bucket) before it borrows with that
 * time, so its borrow is registered after its bucket has started; a borrowing call starts its
 * bucket when it is admitted, and may give its pass back while it waits (interrupted) or when it
 * is admitted (refused by a later rule), possibly delayed. No count of any bucket, main or
 * future, ever goes below zero, and the calls admitted in any window the rule measures (normal ones
 * when decided, borrowing ones when their bucket starts, unless they gave the pass back) never
 * exceed the rule.
 *
 * <p>Not generated: a delayed call that borrows from a bucket that has not started although the
 * window has room again (a pass was given back meanwhile). Normal calls do not count passes that
 * wait for a later bucket (as in Sentinel), so they could then fill the room and that later window
 * would hold one call too many; docs/BEHAVIOUR.md states this bound.
 */
class BorrowedPassProperties {

  enum Kind {
    ADMIT,
    PRIORITIZED,
    BORROW,
    CANCEL
  }

  /**
   * Advance the clock by {@code gapMs}, then act. A prioritized call refused with an odd {@code
   * pick} is delayed before it borrows; a cancel gives back the {@code pick}-th latest borrow.
   */
  record Step(int gapMs, Kind kind, int pick) {}

  /** A borrowing call: admitted at {@code admittedMs}, its pass counted where placed. */
  static final class Borrow {
    final long admittedMs;
    final BorrowPlacement placement;
    boolean cancelled;

    Borrow(long admittedMs, BorrowPlacement placement) {
      this.admittedMs = admittedMs;
      this.placement = placement;
    }
  }

  @Provide
  Arbitrary<WindowGeometry> geometries() {
    return Arbitraries.of(new WindowGeometry(2, 1000), new WindowGeometry(1, 1000),
        new WindowGeometry(4, 1000), new WindowGeometry(4, 2000), new WindowGeometry(10, 1000));
  }

  @Provide
  Arbitrary<Long> starts() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 5_000),
        Arbitraries.longs().between(0, Long.MAX_VALUE / 2),
        Arbitraries.longs().between(Long.MAX_VALUE - 1_000_000_000L, Long.MAX_VALUE - 100_000_000L));
  }

  @Provide
  Arbitrary<List<Step>> schedules() {
    Arbitrary<Integer> gaps = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(0)),
        Tuple.of(6, Arbitraries.integers().between(1, 300)),
        Tuple.of(2, Arbitraries.integers().between(300, 2_500)));
    Arbitrary<Kind> kinds = Arbitraries.frequency(Tuple.of(3, Kind.ADMIT),
        Tuple.of(4, Kind.PRIORITIZED), Tuple.of(2, Kind.BORROW), Tuple.of(3, Kind.CANCEL));
    return Combinators.combine(gaps, kinds, Arbitraries.integers().between(0, 3))
        .as(Step::new).list().ofMinSize(10).ofMaxSize(120);
  }

  @Property(tries = 1000)
  void borrowAdmitCancel_anyInterleaving_noCountBelowZeroAndNoWindowOverTheRule(
      @ForAll("geometries") WindowGeometry geometry,
      @ForAll @IntRange(min = 1, max = 4) int count,
      @ForAll("starts") long startMs,
      @ForAll("schedules") List<Step> steps) {
    OccupiableBucketRing ring = new OccupiableBucketRing(geometry);
    long bucketMs = geometry.bucketLengthMs();
    List<Long> admitted = new ArrayList<>();
    List<Borrow> borrows = new ArrayList<>();
    Deque<Long> delayed = new ArrayDeque<>(); // refused at these times, not borrowed yet
    long now = startMs;
    for (Step step : steps) {
      long next = now + step.gapMs();
      while (!delayed.isEmpty() && delayed.peekFirst() + bucketMs <= next) {
        borrow(ring, geometry, count, delayed.pollFirst(), now, borrows, admitted); // delayed less than a bucket
      }
      admitBorrowers(ring, borrows, now, next);
      now = next;
      ring.sum(now, MetricEvent.PASS); // the bucket of now starts, as any call at this time does
      switch (step.kind()) {
        case ADMIT -> admitIfRoom(ring, geometry, count, now, admitted);
        case PRIORITIZED -> {
          if (admitIfRoom(ring, geometry, count, now, admitted)) {
            break;
          }
          if (step.pick() % 2 == 0) {
            borrow(ring, geometry, count, now, now, borrows, admitted);
          } else {
            delayed.addLast(now);
          }
        }
        case BORROW -> {
          if (!delayed.isEmpty()) {
            borrow(ring, geometry, count, delayed.pollFirst(), now, borrows, admitted);
          }
        }
        case CANCEL -> cancel(ring, borrows, step.pick(), now, bucketMs);
      }
      assertNoCountBelowZero(ring, now);
    }
    while (!delayed.isEmpty()) {
      borrow(ring, geometry, count, delayed.pollFirst(), now, borrows, admitted);
    }
    assertNoCountBelowZero(ring, now);
    for (Borrow borrow : borrows) {
      if (!borrow.cancelled) {
        admitted.add(borrow.admittedMs);
      }
    }
    assertNoWindowOverTheRule(admitted, geometry, count);
    Statistics.label("placements")
        .collect(borrows.stream().map(b -> b.placement).distinct().sorted().toList());
    Statistics.label("cancels").collect(borrows.stream().anyMatch(b -> b.cancelled));
  }

  /**
   * A prioritized call refused at {@code at} borrows at {@code now}, with that time (the flow
   * rule's borrow: decide, then register). The occupy timeout is one bucket, as the default. A
   * delayed call that would borrow from a bucket that has not started while the window has room
   * again is admitted at once instead (see the class comment).
   */
  private static void borrow(OccupiableBucketRing ring, WindowGeometry geometry, int count, long at,
      long now, List<Borrow> borrows, List<Long> admitted) {
    long timeout = geometry.bucketLengthMs();
    long wait = ring.tryOccupyNext(at, 1, count, timeout);
    if (wait >= timeout) {
      return;
    }
    if (at + wait > now && admitIfRoom(ring, geometry, count, now, admitted)) {
      return;
    }
    borrows.add(new Borrow(at + wait, ring.addWaiting(at + wait, 1)));
  }

  /** A normal call: admitted iff the window has room (the flow rule's check). */
  private static boolean admitIfRoom(OccupiableBucketRing ring, WindowGeometry geometry, int count,
      long now, List<Long> admitted) {
    long used = (long) (ring.sum(now, MetricEvent.PASS) / geometry.intervalSec());
    if (used + 1 > count) {
      return false;
    }
    ring.currentWindow(now).add(MetricEvent.PASS, 1);
    admitted.add(now);
    return true;
  }

  /** Borrowing calls admitted in {@code (fromMs, toMs]} start their bucket when admitted. */
  private static void admitBorrowers(OccupiableBucketRing ring, List<Borrow> borrows, long fromMs,
      long toMs) {
    borrows.stream().filter(b -> !b.cancelled && b.admittedMs > fromMs && b.admittedMs <= toMs)
        .mapToLong(b -> b.admittedMs).sorted()
        .forEach(at -> ring.attachedWindow(at));
  }

  /**
   * Gives back the pass of a borrow: the {@code pick}-th latest of those still waiting or admitted
   * in the bucket of now (a borrowing call gives its pass back while it waits, or when a later rule
   * refuses it at its admission; once admitted it keeps it).
   */
  private static void cancel(OccupiableBucketRing ring, List<Borrow> borrows, int pick, long now,
      long bucketMs) {
    List<Borrow> live = borrows.stream()
        .filter(b -> !b.cancelled && now - b.admittedMs < bucketMs).toList();
    if (live.isEmpty()) {
      return;
    }
    Borrow borrow = live.get(Math.max(0, live.size() - 1 - pick));
    ring.cancelWaiting(borrow.admittedMs, 1, borrow.placement);
    borrow.cancelled = true;
  }

  private static void assertNoCountBelowZero(OccupiableBucketRing ring, long now) {
    assertThat(ring.lowest(b -> b.get(MetricEvent.PASS))).as("lowest bucket PASS at %d", now)
        .isZero();
    assertThat(ring.lowest(MetricBucket::arrivedPass)).as("lowest arrived pass at %d", now)
        .isZero();
    assertThat(ring.lowest(b -> b.minuteCount(MetricEvent.PASS)))
        .as("lowest own pass (PASS less arrived) at %d", now).isZero();
    assertThat(ring.lowestBorrowedCount()).as("lowest future count at %d", now).isZero();
    assertThat(ring.waiting(now)).as("waiting at %d", now).isNotNegative();
  }

  /** Every window the rule measures: buckets {@code [s, s + interval)} with {@code s} a bucket start. */
  private static void assertNoWindowOverTheRule(List<Long> admitted, WindowGeometry geometry,
      int count) {
    long w = geometry.bucketLengthMs();
    long interval = geometry.intervalMs();
    long allowed = (long) Math.floor(count * geometry.intervalSec());
    for (long at : admitted) {
      long bucket = at - at % w;
      for (long s = bucket - interval + w; s <= bucket; s += w) {
        long from = s;
        long inWindow = admitted.stream().filter(t -> t >= from && t - from < interval).count();
        assertThat(inWindow).as("calls admitted in [%d, %d + %d): %s", from, from, interval, admitted)
            .isLessThanOrEqualTo(allowed);
      }
    }
  }
}
