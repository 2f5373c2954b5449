package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BucketRingTest {

  private static final long T0 = 60_000L;

  private final BucketRing ring = new BucketRing(WindowGeometry.SECOND_DEFAULT);

  private void pass(long timeMs, int n) {
    ring.currentWindow(timeMs).add(MetricEvent.PASS, n);
  }

  private long passSum(long timeMs) {
    return ring.sum(timeMs, MetricEvent.PASS);
  }

  @Test
  void sum_scenarioA1_followsTheTable() {
    pass(T0 + 100, 1);
    pass(T0 + 600, 1);
    assertThat(passSum(T0 + 900)).as("T0+900").isEqualTo(2);
    assertThat(passSum(T0 + 999)).as("T0+999").isEqualTo(2);
    assertThat(passSum(T0 + 1000)).as("T0+1000, bucket T0 reset").isEqualTo(1);
    pass(T0 + 1000, 3);
    assertThat(passSum(T0 + 1499)).as("T0+1499").isEqualTo(4);
    assertThat(passSum(T0 + 1500)).as("T0+1500, bucket T0+500 reset").isEqualTo(3);
    assertThat(passSum(T0 + 1600)).as("T0+1600").isEqualTo(3);
    assertThat(passSum(T0 + 3000)).as("T0+3000, both stale").isZero();
  }

  @Test
  void currentWindow_sameBucketSpan_returnsSameBucket() {
    MetricBucket first = ring.currentWindow(T0 + 10);

    assertThat(ring.currentWindow(T0 + 499)).isSameAs(first);
    assertThat(first.startMs()).isEqualTo(T0);
  }

  @Test
  void currentWindow_staleSlot_resetsTheSameInstanceInPlace() {
    MetricBucket old = ring.currentWindow(T0 + 10);
    old.add(MetricEvent.REFUSE, 4);

    MetricBucket current = ring.currentWindow(T0 + 1010);

    assertThat(current).isSameAs(old);
    assertThat(current.startMs()).isEqualTo(T0 + 1000);
    assertThat(current.get(MetricEvent.REFUSE)).isZero();
  }

  @Test
  void currentWindow_clockWentBackwards_returnsDetachedBucket() {
    pass(T0 + 1000, 1);

    MetricBucket detached = ring.currentWindow(T0);
    detached.add(MetricEvent.PASS, 5);

    assertThat(detached.startMs()).isEqualTo(T0);
    assertThat(passSum(T0 + 1000)).isEqualTo(1);
  }

  @Test
  void currentWindow_negativeTime_recordsNothing() {
    ring.currentWindow(-1).add(MetricEvent.PASS, 1);

    assertThat(passSum(0)).isZero();
    assertThat(passSum(-1)).isZero();
  }

  @Test
  void isDeprecated_exactlyOneIntervalOld_isNotDeprecated() {
    assertThat(ring.isDeprecated(T0 + 1000, T0)).isFalse();
    assertThat(ring.isDeprecated(T0 + 1001, T0)).isTrue();
  }

  @Test
  void max_twoBuckets_returnsLargerBucket() {
    ring.currentWindow(T0).add(MetricEvent.SUCCESS, 2);
    ring.currentWindow(T0 + 500).add(MetricEvent.SUCCESS, 5);

    assertThat(ring.max(T0 + 600, MetricEvent.SUCCESS)).isEqualTo(5);
  }

  @Test
  void minRt_deprecatedBucket_isIgnored() {
    ring.currentWindow(T0).addRt(3);
    ring.currentWindow(T0 + 500).addRt(8);

    assertThat(ring.minRt(T0 + 999)).isEqualTo(3);
    assertThat(ring.minRt(T0 + 1000)).isEqualTo(8);
    assertThat(ring.minRt(T0 + 5000)).isEqualTo(MetricBucket.DEFAULT_MIN_RT);
  }

  @Test
  void previousWindow_afterOneBucket_returnsPreviousBucket() {
    pass(T0 + 100, 2);

    MetricBucket previous = ring.previousWindow(T0 + 600);

    assertThat(previous).isNotNull();
    assertThat(previous.startMs()).isEqualTo(T0);
  }

  @Test
  void previousWindow_gapOfOneBucket_returnsNull() {
    pass(T0 + 100, 2);

    assertThat(ring.previousWindow(T0 + 1100)).isNull();
  }

  @Test
  void previousWindow_emptySlot_returnsNull() {
    assertThat(ring.previousWindow(T0 + 600)).isNull();
  }

  @Test
  void windowValue_timeOutsideSlotBucket_returnsNull() {
    pass(T0 + 100, 1);

    assertThat(ring.windowValue(T0 + 499)).isNotNull();
    assertThat(ring.windowValue(T0 + 1000)).isNull();
    assertThat(ring.windowValue(-500)).isNull();
  }

  @Test
  void validHead_twoBuckets_returnsOldestValidBucket() {
    pass(T0 + 100, 1);
    pass(T0 + 600, 1);

    MetricBucket head = ring.validHead(T0 + 600);

    assertThat(head).isNotNull();
    assertThat(head.startMs()).isEqualTo(T0);
  }

  @Test
  void validHead_deprecatedBucket_returnsNull() {
    pass(T0 + 100, 1);

    assertThat(ring.validHead(T0 + 1600)).isNull();
  }
}
