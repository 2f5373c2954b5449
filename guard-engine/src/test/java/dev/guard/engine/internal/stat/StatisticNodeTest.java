package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import org.junit.jupiter.api.Test;

class StatisticNodeTest {

  private static final long T0 = 60_000L;
  private static final double COUNT = 2.0;
  private static final long OCCUPY_TIMEOUT = 500L;

  private final StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);

  /** What the flow slot does after a successful {@code tryOccupyNext}. */
  private long borrow(long nowMs) {
    long wait = node.tryOccupyNext(nowMs, 1, COUNT, OCCUPY_TIMEOUT);
    if (wait < OCCUPY_TIMEOUT) {
      node.addWaiting(nowMs + wait, 1);
      node.addOccupiedPass(nowMs, 1);
    }
    return wait;
  }

  private void twoPassesAtT0() {
    node.addPass(T0, 1);
    node.addPass(T0, 1);
  }

  // ---- A7: prioritized borrowing --------------------------------------------------------------

  @Test
  void tryOccupyNext_afterTwoPassesAtCountTwo_waitsUntilNextBucket() {
    twoPassesAtT0();

    assertThat(borrow(T0 + 700)).isEqualTo(300);
    assertThat(node.waiting(T0 + 700)).isEqualTo(1);
  }

  @Test
  void tryOccupyNext_secondBorrow_waitsUntilNextBucket() {
    twoPassesAtT0();
    borrow(T0 + 700);

    assertThat(borrow(T0 + 700)).isEqualTo(300);
    assertThat(node.waiting(T0 + 700)).isEqualTo(2);
  }

  @Test
  void tryOccupyNext_borrowedReachesCount_refuses() {
    twoPassesAtT0();
    borrow(T0 + 700);
    borrow(T0 + 700);

    assertThat(borrow(T0 + 700)).isEqualTo(OCCUPY_TIMEOUT);
    assertThat(node.waiting(T0 + 700)).isEqualTo(2);
  }

  @Test
  void passQps_beforeBorrowedBucketStarts_excludesBorrowedPasses() {
    twoPassesAtT0();
    borrow(T0 + 700);
    borrow(T0 + 700);

    assertThat(node.passQps(T0 + 700)).isEqualTo(2.0);
    assertThat(node.occupiedPassQps(T0 + 700)).isEqualTo(2.0);
  }

  @Test
  void totalPass_afterBorrows_includesOccupiedPasses() {
    twoPassesAtT0();
    borrow(T0 + 700);
    borrow(T0 + 700);

    assertThat(node.totalPass(T0 + 700)).isEqualTo(4);
  }

  @Test
  void passQps_borrowedBucketStarted_countsBorrowedPasses() {
    twoPassesAtT0();
    borrow(T0 + 700);
    borrow(T0 + 700);

    assertThat(node.passQps(T0 + 1000)).isEqualTo(2.0);
    assertThat(node.waiting(T0 + 1000)).isZero();
  }

  @Test
  void tryOccupyNext_exactlyOnBucketBoundary_refuses() {
    twoPassesAtT0();

    assertThat(borrow(T0 + 500)).isEqualTo(OCCUPY_TIMEOUT);
  }

  @Test
  void tryOccupyNext_oneMillisecondAfterBoundary_waits499() {
    twoPassesAtT0();

    assertThat(borrow(T0 + 501)).isEqualTo(499);
  }

  @Test
  void cancelWaiting_afterBorrow_leavesNoTrace() {
    twoPassesAtT0();
    long wait = borrow(T0 + 700);

    node.cancelWaiting(T0 + 700, T0 + 700 + wait, 1, BorrowPlacement.FUTURE_BUCKET);

    assertSoftly(
        softly -> {
          softly.assertThat(node.waiting(T0 + 700)).as("waiting").isZero();
          softly.assertThat(node.occupiedPassQps(T0 + 700)).as("occupiedPassQps").isZero();
          softly.assertThat(node.totalPass(T0 + 700)).as("totalPass").isEqualTo(2);
          softly.assertThat(node.passQps(T0 + 1000)).as("passQps at T0+1000").isZero();
          softly.assertThat(node.totalPass(T0 + 1000)).as("totalPass at T0+1000").isEqualTo(2);
        });
  }

  @Test
  void cancelWaiting_afterBorrow_freesTheBorrowedCapacity() {
    twoPassesAtT0();
    borrow(T0 + 700);
    long wait = borrow(T0 + 700);
    node.cancelWaiting(T0 + 700, T0 + 700 + wait, 1, BorrowPlacement.FUTURE_BUCKET);

    assertThat(borrow(T0 + 700)).isEqualTo(300);
  }

  // ---- A25: node statistics -------------------------------------------------------------------

  /** Drives the writes the statistics slot makes for A25 on the cluster and inbound nodes. */
  private static void scenarioA25(StatisticNode... nodes) {
    for (StatisticNode n : nodes) {
      n.increaseThreads();
      n.addPass(T0, 1);
      n.addRtAndSuccess(T0 + 10, 10, 1);
      n.decreaseThreads();
      n.increaseThreads();
      n.addPass(T0 + 10, 1);
      n.addRtAndSuccess(T0 + 40, 30, 1);
      n.addException(T0 + 40, 1);
      n.decreaseThreads();
      n.addRefused(T0 + 40, 1);
    }
  }

  @Test
  void reads_scenarioA25AtT0Plus40_matchTable() {
    StatisticNode inbound = new StatisticNode(WindowGeometry.SECOND_DEFAULT);
    scenarioA25(node, inbound);
    long now = T0 + 40;

    assertSoftly(
        softly -> {
          softly.assertThat(node.passQps(now)).as("passQps").isEqualTo(2.0);
          softly.assertThat(node.successQps(now)).as("successQps").isEqualTo(2.0);
          softly.assertThat(node.avgRt(now)).as("avgRt").isEqualTo(20.0);
          softly.assertThat(node.minRt(now)).as("minRt").isEqualTo(10.0);
          softly.assertThat(node.exceptionQps(now)).as("exceptionQps").isEqualTo(1.0);
          softly.assertThat(node.refusedQps(now)).as("refusedQps").isEqualTo(1.0);
          softly.assertThat(node.totalQps(now)).as("totalQps").isEqualTo(3.0);
          softly.assertThat(node.totalRequest(now)).as("totalRequest").isEqualTo(3);
          softly.assertThat(node.concurrency()).as("curThreadNum").isZero();
          softly.assertThat(node.maxSuccessQps(now)).as("maxSuccessQps").isEqualTo(4.0);
          softly.assertThat(inbound.passQps(now)).as("inbound passQps").isEqualTo(2.0);
        });
  }

  @Test
  void reads_scenarioA25AtT0Plus1000_matchTable() {
    scenarioA25(node);
    long now = T0 + 1000;

    assertSoftly(
        softly -> {
          softly.assertThat(node.passQps(now)).as("passQps").isZero();
          softly.assertThat(node.previousPassQps(now)).as("previousPassQps").isEqualTo(2.0);
          softly.assertThat(node.previousRefusedQps(now)).as("previousRefusedQps").isEqualTo(1.0);
          softly.assertThat(node.minRt(now)).as("minRt").isEqualTo(5000.0);
          softly.assertThat(node.avgRt(now)).as("avgRt").isZero();
          softly.assertThat(node.totalPass(now)).as("totalPass").isEqualTo(2);
        });
  }

  // ---- other reads ----------------------------------------------------------------------------

  @Test
  void maxSuccessQps_noTraffic_isSampleCountPerSecond() {
    assertThat(node.maxSuccessQps(T0)).isEqualTo(2.0);
  }

  @Test
  void minuteTotals_afterWrites_countSuccessAndException() {
    scenarioA25(node);

    assertThat(node.totalSuccess(T0 + 5000)).isEqualTo(2);
    assertThat(node.totalException(T0 + 5000)).isEqualTo(1);
    assertThat(node.refusedRequest(T0 + 5000)).isEqualTo(1);
  }

  @Test
  void totalPass_afterOneMinute_forgetsOldSeconds() {
    node.addPass(T0, 3);
    node.addPass(T0 + 30_000, 1);

    assertThat(node.totalPass(T0 + 59_999)).isEqualTo(4);
    assertThat(node.totalPass(T0 + 60_000)).isEqualTo(1);
  }

  @Test
  void previousPassQps_gapOfOneSecond_isZero() {
    node.addPass(T0, 3);

    assertThat(node.previousPassQps(T0 + 2000)).isZero();
  }

  @Test
  void passQps_fourBucketsOverTwoSeconds_dividesByTwoSeconds() {
    StatisticNode wide = new StatisticNode(new WindowGeometry(4, 2000));
    wide.addPass(T0, 3);
    wide.addPass(T0 + 1500, 1);

    assertThat(wide.passQps(T0 + 1999)).isEqualTo(2.0);
    assertThat(wide.secondGeometry()).isEqualTo(new WindowGeometry(4, 2000));
  }
}
