package dev.guard.testkit.traffic;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome.Verdict;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrafficSimulatorTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void run_burstOverQpsLimit_passesTheCountThenBlocks() {
    Guard guard = Guard.of("search").qps(5).on(engine);

    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard, ArrivalSchedule.burst(8));

    assertThat(report.outcomes()).extracting(CallOutcome::verdict).containsExactly(Verdict.PASS,
        Verdict.PASS, Verdict.PASS, Verdict.PASS, Verdict.PASS, Verdict.REFUSE, Verdict.REFUSE,
        Verdict.REFUSE);
    assertThat(report.totalPasses()).isEqualTo(5);
    assertThat(report.totalRefused()).isEqualTo(3);
  }

  @Test
  void run_spreadArrivals_decidesEachAtItsOffsetWithoutWaiting() {
    Guard guard = Guard.of("search").qps(100).on(engine);

    TrafficSimulator.Report report =
        TrafficSimulator.of(clock).run(guard, ArrivalSchedule.atMillis(0, 250, 250, 1000));

    assertThat(report.outcomes()).extracting(CallOutcome::decidedAt).containsExactly(
        Duration.ZERO, Duration.ofMillis(250), Duration.ofMillis(250), SECOND);
    assertThat(report.outcomes()).extracting(CallOutcome::waited).containsOnly(Duration.ZERO);
  }

  @Test
  void run_clockAlreadyAdvanced_offsetsCountFromTheCurrentReading() {
    clock.advance(Duration.ofSeconds(5));
    Guard guard = Guard.of("search").qps(100).on(engine);

    TrafficSimulator.Report report =
        TrafficSimulator.of(clock).run(guard, ArrivalSchedule.atMillis(0, 300));

    assertThat(report.outcomes()).extracting(CallOutcome::decidedAt)
        .containsExactly(Duration.ZERO, Duration.ofMillis(300));
    assertThat(clock.nanoTime()).isEqualTo(Duration.ofMillis(5300).toNanos());
  }

  @Test
  void run_afterTheLastCall_leavesTheClockWhereThatCallFinished() {
    Guard guard = Guard.of("search").qps(100).on(engine);

    TrafficSimulator.of(clock)
        .run(guard, ArrivalSchedule.bursts(1, SECOND).lasting(Duration.ofSeconds(3)));

    assertThat(clock.nanoTime()).isEqualTo(Duration.ofSeconds(2).toNanos());
  }

  @Test
  void run_pacedBurst_recordsEachWaitAndDecidesLateCallsAtTheCurrentTime() {
    Guard guard = Guard.of("export").qps(10).pacing(Duration.ofMillis(500)).on(engine);

    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard, ArrivalSchedule.burst(3));

    assertThat(report.outcomes()).containsExactly(
        new CallOutcome(Duration.ZERO, Duration.ZERO, Verdict.PASS, Duration.ZERO),
        new CallOutcome(Duration.ZERO, Duration.ZERO, Verdict.PASS, Duration.ofMillis(100)),
        new CallOutcome(Duration.ZERO, Duration.ofMillis(100), Verdict.PASS,
            Duration.ofMillis(100)));
    assertThat(clock.nanoTime()).isEqualTo(Duration.ofMillis(200).toNanos());
  }

  @Test
  void run_waitCarriesPastTheNextArrival_thatArrivalIsLateNotSkipped() {
    Guard guard = Guard.of("export").qps(2).pacing(SECOND).on(engine);

    TrafficSimulator.Report report =
        TrafficSimulator.of(clock).run(guard, ArrivalSchedule.atMillis(0, 0, 100));

    CallOutcome late = report.outcomes().get(2);
    assertThat(late.scheduledAt()).isEqualTo(Duration.ofMillis(100));
    assertThat(late.decidedAt()).isEqualTo(Duration.ofMillis(500));
    assertThat(late.waited()).isEqualTo(Duration.ofMillis(500));
    assertThat(late.finishedAt()).isEqualTo(SECOND);
  }

  @Test
  void run_emptySchedule_reportsNoCalls() {
    Guard guard = Guard.of("search").qps(1).on(engine);

    TrafficSimulator.Report report =
        TrafficSimulator.of(clock).run(guard, ArrivalSchedule.idle(Duration.ofSeconds(2)));

    assertThat(report.outcomes()).isEmpty();
    assertThat(report.passesPerWindow(SECOND)).containsExactly(0, 0);
    assertThat(clock.nanoTime()).isZero();
  }

  @Test
  void run_clockWrappingPastLongMaxValue_sameOutcomesAsFromZero() {
    ArrivalSchedule schedule = ArrivalSchedule.steady(7, SECOND).lasting(Duration.ofSeconds(4));

    assertThat(passesFrom(Long.MAX_VALUE - 1_500_000_000L, schedule))
        .isEqualTo(passesFrom(0, schedule))
        .containsExactly(3, 3, 3, 3);
  }

  @Test
  void on_parkingClock_rejectedNamingClock() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> TrafficSimulator.of(ManualClock.parking()))
        .withMessageStartingWith("clock must advance when slept on");
  }

  @Test
  void nullArguments_throwNamingTheParameter() {
    TrafficSimulator simulator = TrafficSimulator.of(clock);

    assertThatNullPointerException().isThrownBy(() -> TrafficSimulator.of(null))
        .withMessage("clock");
    assertThatNullPointerException().isThrownBy(() -> simulator.run(null, ArrivalSchedule.burst(1)))
        .withMessage("guard");
    assertThatNullPointerException()
        .isThrownBy(() -> simulator.run(Guard.of("r").on(engine), null))
        .withMessage("schedule");
  }

  @Test
  void toString_namesTheClock() {
    assertThat(TrafficSimulator.of(clock)).hasToString("TrafficSimulator[ManualClock[nanoTime=0]]");
  }

  private static List<Integer> passesFrom(long start, ArrivalSchedule schedule) {
    ManualClock clock = ManualClock.startingAt(start);
    GuardEngine engine = GuardEngine.builder().clock(clock)
        .secondWindow(1, SECOND).build();
    Guard guard = Guard.of("r").qps(3).on(engine);
    return TrafficSimulator.of(clock).run(guard, schedule).passesPerWindow(SECOND);
  }
}
