package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OccupiableBucketRingTest {

  private static final long T0 = 60_000L;

  private final OccupiableBucketRing ring = new OccupiableBucketRing(WindowGeometry.SECOND_DEFAULT);

  private long passSum(long timeMs) {
    return ring.sum(timeMs, MetricEvent.PASS);
  }

  @Test
  void waiting_borrowedBucketNotStarted_countsBorrowedPasses() {
    ring.addWaiting(T0 + 1000, 2);

    assertThat(ring.waiting(T0 + 700)).isEqualTo(2);
    assertThat(ring.waiting(T0 + 999)).isEqualTo(2);
  }

  @Test
  void waiting_borrowedBucketStarted_isZero() {
    ring.addWaiting(T0 + 1000, 2);

    assertThat(ring.waiting(T0 + 1000)).isZero();
  }

  @Test
  void currentWindow_emptySlotWithBorrow_prefillsBorrowedPasses() {
    ring.addWaiting(T0 + 500, 1);

    assertThat(passSum(T0 + 499)).isZero();
    assertThat(passSum(T0 + 500)).isEqualTo(1);
  }

  @Test
  void currentWindow_staleSlotWithBorrow_replacesOldCountsWithBorrowedPasses() {
    ring.currentWindow(T0).add(MetricEvent.PASS, 3);
    ring.addWaiting(T0 + 1000, 2);

    assertThat(passSum(T0 + 999)).isEqualTo(3);
    assertThat(passSum(T0 + 1000)).isEqualTo(2);
  }

  @Test
  void currentWindow_laterCycleOfBorrowedSlot_doesNotReceiveOldBorrow() {
    ring.addWaiting(T0 + 1000, 2);

    assertThat(passSum(T0 + 2000)).isZero();
  }

  @Test
  void cancelWaiting_beforeBucketStarts_removesBorrowedPasses() {
    ring.addWaiting(T0 + 1000, 2);

    ring.cancelWaiting(T0 + 1000, 1, BorrowPlacement.FUTURE_BUCKET);

    assertThat(ring.waiting(T0 + 700)).isEqualTo(1);
    assertThat(passSum(T0 + 1000)).isEqualTo(1);
  }

  @Test
  void cancelWaiting_afterBucketStarted_removesArrivedPasses() {
    ring.addWaiting(T0 + 1000, 2);
    assertThat(passSum(T0 + 1000)).isEqualTo(2);

    ring.cancelWaiting(T0 + 1000, 1, BorrowPlacement.FUTURE_BUCKET);

    assertThat(passSum(T0 + 1100)).isEqualTo(1);
  }

  @Test
  void addWaiting_bucketAlreadyStarted_countsInItAtOnce() {
    ring.currentWindow(T0 + 1000);

    BorrowPlacement placement = ring.addWaiting(T0 + 1000, 1);

    assertThat(placement).isEqualTo(BorrowPlacement.STARTED_BUCKET);
    assertThat(ring.waiting(T0 + 700)).isZero();
    assertThat(passSum(T0 + 1000)).isEqualTo(1);
  }

  @Test
  void cancelWaiting_oneArrivedOneRegisteredLate_leavesTheBucketEmpty() {
    BorrowPlacement first = ring.addWaiting(T0 + 1000, 1);
    assertThat(passSum(T0 + 1000)).as("arrived").isEqualTo(1);
    ring.cancelWaiting(T0 + 1000, 1, first);
    BorrowPlacement second = ring.addWaiting(T0 + 1000, 1); // decided at T0 + 700, registered late

    ring.cancelWaiting(T0 + 1000, 1, second);

    assertThat(List.of(first, second))
        .containsExactly(BorrowPlacement.FUTURE_BUCKET, BorrowPlacement.STARTED_BUCKET);
    assertThat(passSum(T0 + 1000)).isZero();
    assertThat(ring.lowest(bucket -> bucket.get(MetricEvent.PASS))).isZero();
  }

  @Test
  void cancelWaiting_nothingBorrowed_changesNothing() {
    ring.currentWindow(T0 + 1000).add(MetricEvent.PASS, 1);

    ring.cancelWaiting(T0 + 1000, 1, BorrowPlacement.FUTURE_BUCKET);

    assertThat(passSum(T0 + 1000)).isEqualTo(1);
  }

  @Test
  void tryOccupyNext_fourBucketsOverTwoSeconds_measuresItsOwnInterval() {
    // 4 × 500 ms over 2 s: threshold 1/s allows 2 passes per window; the oldest bucket is T0
    OccupiableBucketRing wide = new OccupiableBucketRing(new WindowGeometry(4, 2000));
    wide.currentWindow(T0).add(MetricEvent.PASS, 2);

    assertThat(wide.tryOccupyNext(T0 + 1700, 1, 1.0, 500)).isEqualTo(300);
  }

  @Test
  void tryOccupyNext_secondBucketLeavesTheWindow_waitsTwoBuckets() {
    OccupiableBucketRing wide = new OccupiableBucketRing(new WindowGeometry(4, 2000));
    wide.currentWindow(T0 + 500).add(MetricEvent.PASS, 2);

    assertThat(wide.tryOccupyNext(T0 + 1700, 1, 1.0, 1000)).isEqualTo(800);
    assertThat(wide.tryOccupyNext(T0 + 1700, 1, 1.0, 700)).as("refused").isEqualTo(700);
  }

  @Test
  void tryOccupyNext_singleBucketWindow_waitsForTheBucketEnd() {
    OccupiableBucketRing single = new OccupiableBucketRing(new WindowGeometry(1, 1000));
    single.currentWindow(T0).add(MetricEvent.PASS, 2);

    assertThat(single.tryOccupyNext(T0 + 700, 1, 2.0, 500)).isEqualTo(300);
  }

  @Test
  void tryOccupyNext_nearEngineStart_refusesWithoutOldBuckets() {
    ring.currentWindow(200).add(MetricEvent.PASS, 2);

    assertThat(ring.tryOccupyNext(200, 1, 2.0, 500)).isEqualTo(500);
  }
}
