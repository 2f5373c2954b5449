package dev.guard.testkit.traffic;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome;
import static dev.guard.testkit.traffic.GuardAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Worked examples of the test kit, written to be read: each builds an engine on a {@link
 * ManualClock}, plays a schedule through a guard with the {@link TrafficSimulator} and checks the
 * report and the engine's statistics with {@link GuardAssertions}.
 */
class TrafficSimulatorExamplesTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  @Test
  void run_warmUpUnderSteadyOverload_admitsSentinelsWarmUpCurve() {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    Guard guard = Guard.of("createOrder").qps(10).warmUp(Duration.ofSeconds(10)).on(engine);

    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard,
        ArrivalSchedule.bursts(12, SECOND).lasting(Duration.ofSeconds(16)));

    assertThat(report)
        .hasPassesPerWindow(SECOND, 3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7, 10, 10, 10, 10)
        .hasTotalPasses(90)
        .hasTotalRefused(192 - 90);
    assertThat(engine.stats("createOrder")).hasPassQps(10).hasRefusedQps(2).hasNoCallsRunning();
  }

  @Test
  void run_pacingABurstOfSequentialCalls_spacesThePassesByTheRate() {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    Guard guard = Guard.of("export").qps(5).pacing(Duration.ofMillis(500)).on(engine);

    // one caller making 7 calls at once: each waits for its 200 ms slot, so none is refused
    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard, ArrivalSchedule.burst(7));

    assertThat(report).hasTotalPasses(7).neverWaitsLongerThan(Duration.ofMillis(200));
    assertThat(report.outcomes()).extracting(CallOutcome::finishedAt).containsExactly(
        Duration.ZERO, Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(600),
        Duration.ofMillis(800), Duration.ofMillis(1000), Duration.ofMillis(1200));
  }

  @Test
  void run_qpsLimitOnOneBucketWindow_passesTheLimitEachSecond() {
    ManualClock clock = new ManualClock();
    GuardEngine engine =
        GuardEngine.builder().clock(clock).secondWindow(1, SECOND).build();
    Guard guard = Guard.of("search").qps(4).on(engine);

    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard,
        ArrivalSchedule.steady(10, SECOND).lasting(Duration.ofSeconds(3)));

    assertThat(report)
        .hasPassesPerWindow(SECOND, 4, 4, 4)
        .hasRefusalsPerWindow(SECOND, 6, 6, 6)
        .neverPassesMoreThanPerWindow(SECOND, 4);
    assertThat(engine.stats("search")).hasTotalPass(12).hasTotalRefused(18);
  }
}
