package dev.guard.engine.internal.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.testing.Together;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

class PacingControllerTest {

  private static final long T0 = 60_000L;
  private static final long MS = ShapingDriver.NANOS_PER_MS;

  private static ShapingDriver pacing(double count, long maxQueueingMs) {
    return new ShapingDriver(TestControllers.pacing(count, Duration.ofMillis(maxQueueingMs)));
  }

  private static long waitMs(long ms) {
    return ms * MS;
  }

  @Test
  void decide_a5EightSimultaneousCalls_waitUpToQueueBoundThenBlock() {
    ShapingDriver driver = pacing(10, 500);

    assertThat(driver.burst(T0, 8))
        .containsExactly(0L, waitMs(100), waitMs(200), waitMs(300), waitMs(400), waitMs(500),
            Decision.REFUSE, Decision.REFUSE);
  }

  @Test
  void decide_a5LaterRows_followTheSchedule() {
    ShapingDriver driver = pacing(10, 500);
    driver.burst(T0, 8); // latest slot T0+500

    assertThat(driver.call(T0 + 550)).isEqualTo(waitMs(50));
    assertThat(driver.call(T0 + 600)).isEqualTo(waitMs(100));
    assertThat(driver.call(T0 + 1000)).isEqualTo(Decision.PASS);
    assertThat(driver.burst(T0 + 2000, 2)).containsExactly(Decision.PASS, waitMs(100));
  }

  @Test
  void decide_countZero_refuses() {
    ShapingDriver driver = pacing(0, 500);

    assertThat(driver.burst(T0, 3)).containsOnly(Decision.REFUSE);
  }

  @Test
  void decide_countZeroAndZeroPermits_passes() {
    ShapingDriver driver = pacing(0, 500);

    assertThat(driver.call(T0 * MS, 0)).isEqualTo(Decision.PASS);
  }

  @Test
  void decide_count2000_spacesCallsHalfAMillisecondApart() {
    ShapingDriver driver = pacing(2000, 500);

    assertThat(driver.burst(T0, 5))
        .containsExactly(0L, 500_000L, 1_000_000L, 1_500_000L, 2_000_000L);
  }

  @Test
  void decide_countPointFour_spacesCallsTwoAndAHalfSecondsApart() {
    ShapingDriver driver = pacing(0.4, 10_000);

    assertThat(driver.burst(T0, 5))
        .containsExactly(0L, waitMs(2500), waitMs(5000), waitMs(7500), waitMs(10_000));
  }

  @Test
  void decide_countPointFourAfterSpacing_passesWithoutWait() {
    ShapingDriver driver = pacing(0.4, 0);
    driver.call(T0);

    assertThat(new long[] {driver.call(T0 + 2499), driver.call(T0 + 2500)})
        .containsExactly(Decision.REFUSE, Decision.PASS);
  }

  @Test
  void decide_zeroQueueingTime_refusesEarlyCallsAndNeverWaits() {
    ShapingDriver driver = pacing(10, 0);

    List<Long> decisions = new ArrayList<>(driver.burst(T0, 2));
    decisions.add(driver.call(T0 + 99));
    decisions.add(driver.call(T0 + 100));
    decisions.add(driver.call(T0 + 150));
    decisions.add(driver.call(T0 + 200));

    assertThat(decisions)
        .containsExactly(Decision.PASS, Decision.REFUSE, Decision.REFUSE, Decision.PASS,
            Decision.REFUSE, Decision.PASS);
  }

  @Test
  void decide_afterLongIdle_givesNoCreditBeyondPassNow() {
    ShapingDriver driver = pacing(10, 500);
    driver.call(T0);

    assertThat(driver.burst(T0 + 10_000, 3)).containsExactly(0L, waitMs(100), waitMs(200));
  }

  @Test
  void decide_firstCallAtEngineTimeZero_passesWithoutWait() {
    ShapingDriver driver = pacing(10, 0);

    assertThat(driver.call(0)).isEqualTo(Decision.PASS);
  }

  @Test
  void decide_severalPermits_costProportionally() {
    ShapingDriver driver = pacing(10, 1000);
    driver.call(T0 * MS, 1);

    assertThat(driver.call(T0 * MS, 3)).isEqualTo(waitMs(300));
  }

  @Test
  void cancel_latestReservationAbandoned_nextCallerGetsItsSlot() {
    PacingController controller = TestControllers.pacing(10, Duration.ofMillis(500));
    FakeFlowMetrics node = new FakeFlowMetrics();
    controller.decide(node, 1, false, T0 * MS, T0);
    controller.decide(node, 1, false, T0 * MS, T0);
    long abandoned = controller.decide(node, 1, false, T0 * MS, T0);

    controller.cancel(abandoned, 1);

    assertThat(abandoned).isEqualTo(waitMs(200));
    assertThat(controller.decide(node, 1, false, (T0 + 50) * MS, T0 + 50)).isEqualTo(waitMs(150));
  }

  @Test
  void cancel_earlierReservationAbandoned_nextCallerTakesFreedCapacity() {
    PacingController controller = TestControllers.pacing(10, Duration.ofMillis(500));
    FakeFlowMetrics node = new FakeFlowMetrics();
    controller.decide(node, 1, false, T0 * MS, T0);
    long abandoned = controller.decide(node, 1, false, T0 * MS, T0);
    controller.decide(node, 1, false, T0 * MS, T0); // holds T0+200

    controller.cancel(abandoned, 1);

    // documented trade-off: the schedule moves back by one cost, so the next caller shares the
    // slot of the last queued call instead of queueing behind it
    assertThat(controller.decide(node, 1, false, T0 * MS, T0)).isEqualTo(waitMs(200));
  }

  @Test
  void cancel_passOrBlockDecision_changesNothing() {
    PacingController controller = TestControllers.pacing(10, Duration.ofMillis(100));
    FakeFlowMetrics node = new FakeFlowMetrics();
    long pass = controller.decide(node, 1, false, T0 * MS, T0);
    controller.decide(node, 1, false, T0 * MS, T0);
    long refused = controller.decide(node, 1, false, T0 * MS, T0);

    controller.cancel(pass, 1);
    controller.cancel(refused, 1);

    assertThat(controller.decide(node, 1, false, T0 * MS, T0)).isEqualTo(Decision.REFUSE);
  }

  @Test
  void decide_threadsRacingAtOneInstant_getDistinctSlotsUpToTheBound() throws Exception {
    PacingController controller = TestControllers.pacing(100, Duration.ofMillis(500));
    ConcurrentLinkedQueue<Long> decisions = new ConcurrentLinkedQueue<>();
    runConcurrently(8, 50, () -> decisions.add(
        controller.decide(new FakeFlowMetrics(), 1, false, T0 * MS, T0)));

    List<Long> admitted = decisions.stream().filter(Decision::admits).sorted().toList();
    List<Long> expected = new ArrayList<>();
    for (long k = 0; k <= 50; k++) {
      expected.add(k * 10 * MS);
    }
    assertThat(admitted).isEqualTo(expected);
  }

  @Test
  void constructor_negativeQueueingTime_throwsNamingTheOption() {
    assertThatThrownBy(() -> TestControllers.pacing(1, Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxQueueingTime must not be negative, was PT-0.001S");
  }

  @Test
  void constructor_nanCount_throwsNamingTheValue() {
    assertThatThrownBy(() -> TestControllers.pacing(Double.NaN, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("count must be finite and >= 0, was NaN");
  }

  static void runConcurrently(int threads, int callsEach, Runnable call) throws Exception {
    Together.run(threads, thread -> {
      for (int k = 0; k < callsEach; k++) {
        call.run();
      }
    });
  }
}
