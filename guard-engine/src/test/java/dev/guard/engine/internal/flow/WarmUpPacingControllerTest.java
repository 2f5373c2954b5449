package dev.guard.engine.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarmUpPacingControllerTest {

  private static final long T0 = 60_000L;
  private static final long MS = ShapingDriver.NANOS_PER_MS;

  private static PacingController controller(double count, long maxQueueingMs) {
    return TestControllers.warmUpPacing(
        count, Duration.ofSeconds(10), 3, Duration.ofMillis(maxQueueingMs));
  }

  /** Drains the tokens below the warning line as A4b does (previous second: 10 passes). */
  private static StubFlowMetrics warmed(PacingController controller, long untilMs) {
    StubFlowMetrics node = new StubFlowMetrics(0, 10);
    for (long ms = untilMs - 10_000; ms < untilMs; ms += 1000) {
      TestControllers.tokensOf(controller).sync(ms, 10);
    }
    return node;
  }

  @Test
  void decide_a6ThreeSimultaneousCallsFromCold_spacedThreeHundredMs() {
    ShapingDriver driver = new ShapingDriver(controller(10, 500));

    assertThat(driver.burst(T0, 3)).containsExactly(0L, 300 * MS, Decision.REFUSE);
  }

  @Test
  void decide_a6CallAtT0Plus300_waitsThreeHundredMs() {
    ShapingDriver driver = new ShapingDriver(controller(10, 500));
    driver.burst(T0, 3);

    assertThat(driver.call(T0 + 300)).isEqualTo(300 * MS);
  }

  @Test
  void decide_tokensBelowWarningLine_spacesCallsHundredMs() {
    PacingController controller = controller(10, 500);
    StubFlowMetrics node = warmed(controller, T0);

    long first = controller.decide(node, 1, false, T0 * MS, T0);
    long second = controller.decide(node, 1, false, T0 * MS, T0);

    assertThat(TestControllers.tokensOf(controller).storedTokens()).isLessThan(TestControllers.tokensOf(controller).warningToken());
    assertThat(new long[] {first, second}).containsExactly(Decision.PASS, 100 * MS);
  }

  @Test
  void decide_warmWithTenMsQueue_refusesSecondImmediateCall() {
    PacingController controller = controller(10, 10);
    StubFlowMetrics node = warmed(controller, T0);

    long first = controller.decide(node, 1, false, T0 * MS, T0);
    long second = controller.decide(node, 1, false, T0 * MS, T0);

    assertThat(new long[] {first, second}).containsExactly(Decision.PASS, Decision.REFUSE);
  }

  @Test
  void decide_coldRateBelowOnePerSecond_neverStarvesAndReachesCount() {
    ShapingDriver driver = new ShapingDriver(controller(2, 1000));

    List<Integer> perSecond = driver.perSecond(T0, 0, 30, 5);

    // cold rate 0.67/s (spacing 1.5 s): slots T0, +1.4 s, +2.7 s, +3.9 s, +5 s, ...
    assertThat(perSecond.subList(0, 5)).containsOnly(1);
    assertThat(perSecond.subList(10, 30)).containsOnly(2);
  }

  @Test
  void decide_countZero_refuses() {
    ShapingDriver driver = new ShapingDriver(controller(0, 500));

    assertThat(driver.call(T0)).isEqualTo(Decision.REFUSE);
  }

  @Test
  void decide_zeroPermits_passes() {
    ShapingDriver driver = new ShapingDriver(controller(0, 500));

    assertThat(driver.call(T0 * MS, 0)).isEqualTo(Decision.PASS);
  }

  @Test
  void decide_noWarmUpBand_pacesAtFullRate() {
    PacingController controller =
        TestControllers.warmUpPacing(1, Duration.ofSeconds(1), 3, Duration.ofSeconds(2));
    ShapingDriver driver = new ShapingDriver(controller);

    assertThat(driver.burst(T0, 3)).containsExactly(0L, 1000 * MS, 2000 * MS);
  }

  @Test
  void cancel_latestReservationAbandoned_nextCallerGetsItsSlot() {
    PacingController controller = controller(10, 1000);
    FakeFlowMetrics node = new FakeFlowMetrics();
    controller.decide(node, 1, false, T0 * MS, T0);
    long abandoned = controller.decide(node, 1, false, T0 * MS, T0);

    controller.cancel(abandoned, 1);

    assertThat(abandoned).isEqualTo(300 * MS);
    assertThat(controller.decide(node, 1, false, T0 * MS, T0)).isEqualTo(300 * MS);
  }
}
