package dev.guard.testkit.traffic;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome;
import static dev.guard.testkit.traffic.GuardAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Limiting behaviour of the real engine, driven by the simulator over generated guards, schedules
 * and clock starts.
 */
class TrafficSimulatorProperties {

  private static final Duration SECOND = Duration.ofSeconds(1);

  @Property(tries = 200)
  void run_qpsGuardOnOneBucketWindow_neverPassesMoreThanCountPerAlignedSecond(
      @ForAll("qpsGuards") Guard guard,
      @ForAll("schedules") ArrivalSchedule schedule,
      @ForAll("starts") long start) {
    ManualClock clock = ManualClock.startingAt(start);
    GuardEngine engine = GuardEngine.builder().clock(clock).secondWindow(1, SECOND).build();

    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard.on(engine), schedule);

    int count = (int) guard.flowRules().get(0).threshold();
    assertThat(report).neverPassesMoreThanPerWindow(SECOND, count);
  }

  @Property(tries = 200)
  void run_anyFlowGuard_everyArrivalDecidedOnceInOrderAndNoCallLeftRunning(
      @ForAll("anyGuards") Guard guard,
      @ForAll("schedules") ArrivalSchedule schedule,
      @ForAll("starts") long start) {
    ManualClock clock = ManualClock.startingAt(start);
    GuardEngine engine = GuardEngine.builder().clock(clock).build();

    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard.on(engine), schedule);

    assertThat(report.totalPasses() + report.totalRefused()).isEqualTo(schedule.size());
    List<CallOutcome> outcomes = report.outcomes();
    for (int i = 0; i < outcomes.size(); i++) {
      CallOutcome outcome = outcomes.get(i);
      assertThat(outcome.scheduledAt()).isEqualTo(schedule.offsets().get(i));
      if (i > 0) {
        assertThat(outcome.decidedAt()).isGreaterThanOrEqualTo(outcomes.get(i - 1).finishedAt());
      }
    }
    assertThat(engine.stats("R")).hasNoCallsRunning();
  }

  @Property(tries = 200)
  void run_pacedGuard_noCallWaitsLongerThanTheQueueingBound(
      @ForAll("pacedGuards") Guard guard,
      @ForAll("schedules") ArrivalSchedule schedule) {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();

    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard.on(engine), schedule);

    assertThat(report).neverWaitsLongerThan(guard.flowRules().get(0).maxQueueingTime());
  }

  @Property(tries = 100)
  void run_concurrencyGuardWithSequentialCalls_admitsEveryCall(
      @ForAll("concurrencyGuards") Guard guard,
      @ForAll("schedules") ArrivalSchedule schedule) {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();

    TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard.on(engine), schedule);

    assertThat(report).hasTotalRefused(0).hasTotalPasses(schedule.size());
  }

  @Property(tries = 150)
  void run_anyFlowGuard_outcomesDoNotDependOnTheClockStart(
      @ForAll("anyGuards") Guard guard,
      @ForAll("schedules") ArrivalSchedule schedule,
      @ForAll("starts") long start) {
    assertThat(outcomesFrom(start, guard, schedule))
        .isEqualTo(outcomesFrom(0, guard, schedule));
  }

  @Provide
  Arbitrary<Guard> qpsGuards() {
    return FlowArbitraries.guards(FlowArbitraries.qpsRules("R"));
  }

  @Provide
  Arbitrary<Guard> anyGuards() {
    return FlowArbitraries.guards(FlowArbitraries.flowRules("R"));
  }

  @Provide
  Arbitrary<Guard> pacedGuards() {
    return FlowArbitraries.guards(FlowArbitraries.shapedQpsRules("R")
        .filter(rule -> rule.warmUp() == null || rule.shaping() == FlowRule.Shaping.PACING));
  }

  @Provide
  Arbitrary<Guard> concurrencyGuards() {
    return FlowArbitraries.guards(FlowArbitraries.concurrencyRules("R"));
  }

  @Provide
  Arbitrary<ArrivalSchedule> schedules() {
    return FlowArbitraries.arrivalSchedules();
  }

  @Provide
  Arbitrary<Long> starts() {
    return FlowArbitraries.clockStarts();
  }

  private static List<CallOutcome> outcomesFrom(long start, Guard guard, ArrivalSchedule schedule) {
    ManualClock clock = ManualClock.startingAt(start);
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    return TrafficSimulator.of(clock).run(guard.on(engine), schedule).outcomes();
  }
}
