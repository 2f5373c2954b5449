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
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class BucketRingProperties {

  /** One step of a schedule: advance the clock by {@code gapMs}, then add {@code n} or read. */
  record Step(int gapMs, int n, boolean read) {}

  record Event(long timeMs, int n) {}

  @Provide
  Arbitrary<List<Step>> schedules() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.integers().between(0, 2500),
                Arbitraries.integers().between(1, 5),
                Arbitraries.of(true, false))
            .as(Step::new);
    return step.list().ofMaxSize(60);
  }

  @Property
  void sum_randomSchedule_equalsEventsOfValidBuckets(
      @ForAll @IntRange(min = 1, max = 10) int sampleCount,
      @ForAll @IntRange(min = 1, max = 200) int bucketLengthMs,
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE / 2) long startMs,
      @ForAll("schedules") List<Step> steps) {
    WindowGeometry geometry = new WindowGeometry(sampleCount, sampleCount * bucketLengthMs);
    BucketRing ring = new BucketRing(geometry);
    List<Event> events = new ArrayList<>();
    long now = startMs;
    for (Step step : steps) {
      now += step.gapMs();
      if (step.read()) {
        assertThat(ring.sum(now, MetricEvent.PASS))
            .as("pass sum at %d", now)
            .isEqualTo(expectedSum(events, now, geometry));
      } else {
        ring.currentWindow(now).add(MetricEvent.PASS, step.n());
        events.add(new Event(now, step.n()));
      }
    }
    assertThat(ring.sum(now, MetricEvent.PASS)).isEqualTo(expectedSum(events, now, geometry));
  }

  @Property
  void tryOccupyNext_anySchedule_waitEndsOnBucketBoundaryOrRefuses(
      @ForAll @IntRange(min = 1, max = 10) int sampleCount,
      @ForAll @IntRange(min = 1, max = 200) int bucketLengthMs,
      @ForAll @LongRange(min = 0, max = 1_000_000) long startMs,
      @ForAll("schedules") List<Step> steps,
      @ForAll @IntRange(min = 1, max = 20) int threshold) {
    WindowGeometry geometry = new WindowGeometry(sampleCount, sampleCount * bucketLengthMs);
    OccupiableBucketRing ring = new OccupiableBucketRing(geometry);
    long timeout = geometry.intervalMs();
    long now = startMs;
    for (Step step : steps) {
      now += step.gapMs();
      long wait = ring.tryOccupyNext(now, step.n(), threshold, timeout);
      if (wait < timeout) {
        assertThat(wait).isPositive();
        assertThat((now + wait) % bucketLengthMs).as("arrival on a bucket start").isZero();
        ring.addWaiting(now + wait, step.n());
      } else {
        assertThat(wait).isEqualTo(timeout);
        ring.currentWindow(now).add(MetricEvent.PASS, step.n());
      }
    }
  }

  /**
   * The window model of docs/BEHAVIOUR.md, "Statistics": an event still counts at {@code t} iff its bucket is not
   * deprecated ({@code t − start <= interval}) and the read at {@code t} has not reused its slot
   * for a later bucket.
   */
  static long expectedSum(List<Event> events, long t, WindowGeometry geometry) {
    long w = geometry.bucketLengthMs();
    long readStart = t - t % w;
    long readSlot = (t / w) % geometry.sampleCount();
    long sum = 0;
    for (Event event : events) {
      long start = event.timeMs() - event.timeMs() % w;
      boolean sameSlot = (event.timeMs() / w) % geometry.sampleCount() == readSlot;
      boolean overwritten = sameSlot && start != readStart;
      if (t - start <= geometry.intervalMs() && !overwritten) {
        sum += event.n();
      }
    }
    return sum;
  }
}
