package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import org.junit.jupiter.api.Test;

/** The minute window as a roll-up of the second-level window (see {@link MinuteWindow}). */
class StatisticNodeRollUpTest {

  private static final long T0 = 60_000L;
  private static final double COUNT = 2.0;
  private static final long OCCUPY_TIMEOUT = 500L;

  private final StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);

  /** What the flow slot does after a successful {@code tryOccupyNext}; returns the arrival time. */
  private static long borrow(StatisticNode target, long nowMs) {
    long wait = target.tryOccupyNext(nowMs, 1, COUNT, OCCUPY_TIMEOUT);
    assertThat(wait).as("borrow at %d admitted", nowMs).isLessThan(OCCUPY_TIMEOUT);
    target.addWaiting(nowMs + wait, 1);
    target.addOccupiedPass(nowMs, 1);
    return nowMs + wait;
  }

  /** Reads {@code totalPass} after a second-window read has reset (and rolled up) the slot of t. */
  private long totalPassAfterReset(long timeMs) {
    node.passQps(timeMs);
    return node.totalPass(timeMs);
  }

  /** A7 up to the two borrows at T0+700, both arriving at T0+1000. */
  private void scenarioA7Borrows() {
    node.addPass(T0, 1);
    node.addPass(T0, 1);
    borrow(node, T0 + 700);
    borrow(node, T0 + 700);
  }

  // ---- geometry -------------------------------------------------------------------------------

  @Test
  void constructor_bucketLengthNotDividingOneSecond_namesTheLength() {
    assertThatThrownBy(() -> new StatisticNode(new WindowGeometry(3, 900)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must divide 1000 ms")
        .hasMessageContaining("was 300 ms");
  }

  @Test
  void constructor_bucketLongerThanOneSecond_isRejected() {
    assertThatThrownBy(() -> new StatisticNode(new WindowGeometry(2, 4000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 2000 ms");
  }

  @Test
  void constructor_bucketLengthDividingOneSecond_isAccepted() {
    assertThat(new StatisticNode(new WindowGeometry(8, 1000)).secondGeometry().bucketLengthMs())
        .isEqualTo(125);
    assertThat(new StatisticNode(new WindowGeometry(90, 90_000)).secondGeometry().intervalMs())
        .isEqualTo(90_000);
  }

  // ---- roll-up --------------------------------------------------------------------------------

  @Test
  void totalPass_afterManyBucketResets_countsTheLastSixtySeconds() {
    for (long t = T0; t < T0 + 90_000; t += 250) {
      node.addPass(t, 1);
    }
    long now = T0 + 89_750;

    assertThat(node.totalPass(now)).isEqualTo(60 * 4);
    assertThat(node.previousPassQps(now)).isEqualTo(4.0);
  }

  @Test
  void minuteTotals_afterRollUp_keepEveryEvent() {
    node.addPass(T0 + 100, 2);
    node.addRefused(T0 + 600, 3);
    node.addRtAndSuccess(T0 + 700, 12, 4);
    node.addException(T0 + 900, 1);

    long now = T0 + 5_000; // both buckets of T0 rolled up
    node.addPass(now, 1);
    node.addPass(now + 500, 1);

    assertSoftly(
        softly -> {
          softly.assertThat(node.totalPass(now + 500)).as("totalPass").isEqualTo(4);
          softly.assertThat(node.refusedRequest(now + 500)).as("refusedRequest").isEqualTo(3);
          softly.assertThat(node.totalSuccess(now + 500)).as("totalSuccess").isEqualTo(4);
          softly.assertThat(node.totalException(now + 500)).as("totalException").isEqualTo(1);
          softly.assertThat(node.passQps(now + 500)).as("passQps").isEqualTo(2.0);
        });
  }

  @Test
  void totalPass_bucketRetiredAfterItsSecondLeftTheMinute_isNotCounted() {
    node.addPass(T0, 5);
    node.addPass(T0 + 61_000, 1); // reuses the slot of T0 after T0 left the minute window

    assertThat(node.totalPass(T0 + 61_000)).isEqualTo(1);
    assertThat(node.totalPass(T0 + 119_999)).isEqualTo(1);
  }

  @Test
  void previousPassQps_previousSecondStillInSecondRing_countsIt() {
    node.addPass(T0 + 600, 3);

    assertThat(node.previousPassQps(T0 + 1_100)).isEqualTo(3.0);
    assertThat(node.previousPassQps(T0 + 2_000)).isZero();
  }

  @Test
  void addPass_slotAlreadyReusedForLaterStart_countsInMinuteWindowOnly() {
    node.addPass(T0 + 1_000, 1);

    node.addPass(T0, 1); // a late write: slot 0 already holds T0+1000

    assertThat(node.passQps(T0 + 1_000)).isEqualTo(1.0);
    assertThat(node.totalPass(T0 + 1_000)).isEqualTo(2);
    assertThat(node.previousPassQps(T0 + 1_000)).isEqualTo(1.0);
  }

  @Test
  void totalPass_secondWindowLongerThanOneMinute_countsOnlyTheLastSixtySeconds() {
    StatisticNode wide = new StatisticNode(new WindowGeometry(100, 100_000));
    wide.addPass(T0, 1);
    wide.addPass(T0 + 30_000, 1);
    wide.addPass(T0 + 70_000, 1);

    assertThat(wide.passQps(T0 + 70_000)).isEqualTo(0.03);
    assertThat(wide.totalPass(T0 + 70_000)).isEqualTo(2);
  }

  // ---- borrowed passes ------------------------------------------------------------------------

  @Test
  void totalPass_borrowedPassesArriveAndRollUp_countsThemOnce() {
    scenarioA7Borrows();

    assertSoftly(
        softly -> {
          softly.assertThat(totalPassAfterReset(T0 + 700)).as("at borrowing").isEqualTo(4);
          softly.assertThat(totalPassAfterReset(T0 + 1_000)).as("arrived").isEqualTo(4);
          softly.assertThat(node.passQps(T0 + 1_000)).as("arrived passQps").isEqualTo(2.0);
          softly.assertThat(totalPassAfterReset(T0 + 1_500)).as("occupied rolled up").isEqualTo(4);
          softly.assertThat(totalPassAfterReset(T0 + 2_000)).as("arrived rolled up").isEqualTo(4);
          softly.assertThat(totalPassAfterReset(T0 + 59_999)).as("end of minute").isEqualTo(4);
          softly.assertThat(totalPassAfterReset(T0 + 60_000)).as("next minute").isZero();
        });
  }

  @Test
  void previousPassQps_borrowedPasses_countInTheSecondOfBorrowing() {
    scenarioA7Borrows();
    node.passQps(T0 + 1_000); // the borrowed passes arrive; bucket T0 is rolled up
    node.passQps(T0 + 1_500); // bucket T0+500, holding the occupied passes, is rolled up

    assertThat(node.previousPassQps(T0 + 1_000)).isEqualTo(4.0);
    assertThat(node.previousPassQps(T0 + 2_000)).isZero();
  }

  @Test
  void cancelWaiting_afterOccupiedBucketRolledUp_leavesNoTrace() {
    node.addPass(T0, 2);
    long arrival = borrow(node, T0 + 700);
    node.passQps(T0 + 1_000); // the borrowed pass arrives
    node.passQps(T0 + 1_500); // bucket T0+500, holding the occupied pass, is rolled up

    node.cancelWaiting(T0 + 700, arrival, 1, BorrowPlacement.FUTURE_BUCKET);

    assertThat(node.totalPass(T0 + 1_500)).isEqualTo(2);
    assertThat(node.passQps(T0 + 1_500)).isZero();
    assertThat(node.totalPass(T0 + 2_500)).isEqualTo(2);
  }

  @Test
  void cancelWaiting_singleBucketWindowAfterArrival_leavesNoTrace() {
    // one 1 s bucket: the borrowed bucket reuses the slot of the borrowing bucket
    StatisticNode single = new StatisticNode(new WindowGeometry(1, 1000));
    single.addPass(T0, 2);
    long arrival = borrow(single, T0 + 700);
    single.passQps(T0 + 1_000); // rolls up T0 and lets the borrowed pass arrive
    assertThat(single.totalPass(T0 + 1_000)).as("before cancel").isEqualTo(3);

    single.cancelWaiting(T0 + 700, arrival, 1, BorrowPlacement.FUTURE_BUCKET);

    assertThat(single.totalPass(T0 + 1_000)).isEqualTo(2);
    assertThat(single.passQps(T0 + 1_000)).isZero();
    assertThat(single.totalPass(T0 + 2_000)).isEqualTo(2);
  }
}
