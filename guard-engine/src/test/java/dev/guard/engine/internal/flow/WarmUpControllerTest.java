package dev.guard.engine.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WarmUpControllerTest {

  private static final long T0 = 60_000L;
  private static final long NS = ShapingDriver.NANOS_PER_MS;
  private static final List<Integer> A4_PASSES =
      List.of(3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7, 10, 10, 10, 10);

  private static ShapingDriver warmUp(double count, int periodSeconds, int coldFactor) {
    return new ShapingDriver(
        TestControllers.warmUp(count, Duration.ofSeconds(periodSeconds), coldFactor));
  }

  @Test
  void decide_a4TwelveCallsEachSecondFromCold_admitsSentinelSequence() {
    ShapingDriver driver = warmUp(10, 10, 3);

    assertThat(driver.perSecond(T0, 0, 16, 12)).isEqualTo(A4_PASSES);
  }

  @Test
  void decide_a4TwelveCallsEachSecond_tokensAfterSyncMatchSentinel() {
    ShapingDriver driver = warmUp(10, 10, 3);
    WarmUpTokens tokens = TestControllers.tokensOf(driver.controller);
    List<Long> afterSync = new ArrayList<>();
    for (int k = 0; k < 16; k++) {
      driver.admitted(T0 + k * 1000L, 12);
      afterSync.add(tokens.storedTokens());
    }

    assertThat(afterSync)
        .containsExactly(100L, 97L, 94L, 91L, 88L, 85L, 81L, 77L, 73L, 68L, 63L, 57L, 50L, 40L,
            40L, 40L);
  }

  @Test
  void decide_a4bStubbedNode_blocksPassesThenSettlesBelowWarningLine() {
    RefuseController controller = TestControllers.warmUp(10, Duration.ofSeconds(10), 3);
    StubFlowMetrics node = new StubFlowMetrics(8, 1);

    long first = controller.decide(node, 1, false, T0 * NS, T0);
    node.passQps = 1;
    long second = controller.decide(node, 1, false, T0 * NS, T0);
    node.previousPassQps = 10;
    for (long ms = T0 + 100; ms <= T0 + 10_000; ms += 100) {
      controller.decide(node, 1, false, ms * NS, ms);
    }
    long settled = TestControllers.tokensOf(controller).storedTokens();
    node.passQps = 8;
    long atEight = controller.decide(node, 1, false, (T0 + 10_000) * NS, T0 + 10_000);
    node.passQps = 10;
    long atTen = controller.decide(node, 1, false, (T0 + 10_000) * NS, T0 + 10_000);

    assertThat(new long[] {first, second, atEight, atTen})
        .containsExactly(Decision.REFUSE, Decision.PASS, Decision.PASS, Decision.REFUSE);
    assertThat(settled).isEqualTo(49);
  }

  @Test
  void decide_coldFactorFiveUnderOverload_climbsFromTwoToTen() {
    ShapingDriver driver = warmUp(10, 10, 5);

    assertThat(driver.perSecond(T0, 0, 16, 12))
        .containsExactly(2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 5, 8, 10, 10, 10);
  }

  @Test
  void decide_twoIdleSecondsAfterWarm_resumesPartlyColdAndRewarms() {
    ShapingDriver driver = warmUp(10, 10, 3);
    driver.perSecond(T0, 0, 16, 12); // warm: 10 per second from second 12
    long resume = T0 + 18_000; // no calls in seconds 16 and 17

    // 3 s since the last sync: 40 + 30 tokens → rate 5.56
    assertThat(driver.perSecond(resume, 0, 6, 12)).containsExactly(5, 6, 7, 9, 10, 10);
  }

  @Test
  void decide_twentyIdleSecondsAfterWarm_startsFullyColdAgain() {
    ShapingDriver driver = warmUp(10, 10, 3);
    driver.perSecond(T0, 0, 16, 12);
    long resume = T0 + 36_000; // no calls in seconds 16 to 35

    assertThat(driver.perSecond(resume, 0, 16, 12)).isEqualTo(A4_PASSES);
  }

  @Test
  void decide_q1CountTwoBelowColdFactor_admitsEverySecondSecondThenReachesTwo() {
    ShapingDriver driver = warmUp(2, 10, 3);

    List<Integer> perSecond = driver.perSecond(T0, 0, 30, 5);

    assertThat(perSecond.subList(0, 8)).containsExactly(1, 0, 1, 0, 1, 0, 1, 0);
    assertThat(perSecond.subList(14, 30)).containsOnly(2);
  }

  @Test
  void decide_q1CountOne_admitsSparselyThenReachesOnePerSecond() {
    ShapingDriver driver = warmUp(1, 10, 3);

    List<Integer> perSecond = driver.perSecond(T0, 0, 30, 5);

    assertThat(perSecond.subList(0, 6)).containsExactly(1, 0, 0, 1, 0, 0);
    assertThat(perSecond.subList(12, 30)).containsOnly(1);
  }

  @Test
  void decide_countThreeEqualToColdFactor_matchesSentinel() {
    ShapingDriver driver = warmUp(3, 10, 3);

    List<Integer> perSecond = driver.perSecond(T0, 0, 20, 5);

    assertThat(perSecond.subList(0, 15))
        .containsExactly(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3);
    assertThat(perSecond.subList(15, 20)).containsOnly(3);
  }

  @Test
  void decide_q2EngineTimeStartingAtZero_startsCold() {
    ShapingDriver driver = warmUp(10, 10, 3);

    assertThat(driver.perSecond(0, 0, 16, 12)).isEqualTo(A4_PASSES);
  }

  @Test
  void decide_q2EngineTimeStartingAt200Ms_startsCold() {
    ShapingDriver driver = warmUp(10, 10, 3);

    assertThat(driver.perSecond(0, 200, 16, 12)).isEqualTo(A4_PASSES);
  }

  @Test
  void decide_noWarmUpBand_admitsFullRate() {
    ShapingDriver driver = warmUp(1, 1, 3);

    assertThat(driver.perSecond(T0, 0, 3, 5)).containsExactly(1, 1, 1);
  }

  @Test
  void decide_batchLargerThanColdRate_isAdmittedSparsely() {
    RefuseController controller = TestControllers.warmUp(10, Duration.ofSeconds(10), 3);
    FakeFlowMetrics node = new FakeFlowMetrics();

    long first = controller.decide(node, 5, false, T0 * NS, T0);
    node.recordPass(T0, 5);
    long early = controller.decide(node, 5, false, (T0 + 1399) * NS, T0 + 1399);
    long late = controller.decide(node, 5, false, (T0 + 1400) * NS, T0 + 1400);

    // cold rate 3.33/s; after the sync at T0+1000 (95 tokens) 3.57/s: 5 permits need 1.4 s
    assertThat(new long[] {first, early, late})
        .containsExactly(Decision.PASS, Decision.REFUSE, Decision.PASS);
  }

  @Test
  void decide_sparseModeWithNonEmptyWindow_refuses() {
    RefuseController controller = TestControllers.warmUp(2, Duration.ofSeconds(10), 3);
    StubFlowMetrics node = new StubFlowMetrics(1, 0);

    assertThat(controller.decide(node, 1, false, T0 * NS, T0)).isEqualTo(Decision.REFUSE);
  }

  @Test
  void decide_threadsRacingInSparseMode_admitExactlyOne() throws Exception {
    RefuseController controller = TestControllers.warmUp(2, Duration.ofSeconds(10), 3);
    StubFlowMetrics node = new StubFlowMetrics(0, 0); // the window never shows the passes
    AtomicInteger admitted = new AtomicInteger();

    PacingControllerTest.runConcurrently(8, 100, () -> {
      if (Decision.admits(controller.decide(node, 1, false, T0 * NS, T0))) {
        admitted.incrementAndGet();
      }
    });

    assertThat(admitted).hasValue(1);
  }

  @Test
  void decide_countZero_refuses() {
    ShapingDriver driver = warmUp(0, 10, 3);

    assertThat(driver.call(T0)).isEqualTo(Decision.REFUSE);
  }

  @Test
  void decide_zeroPermits_passes() {
    RefuseController controller = TestControllers.warmUp(0, Duration.ofSeconds(10), 3);

    assertThat(controller.decide(new FakeFlowMetrics(), 0, false, T0 * NS, T0))
        .isEqualTo(Decision.PASS);
  }
}
