package dev.guard.testkit.traffic;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.internal.DurationArguments;
import dev.guard.testkit.traffic.SimulationReport.CallOutcome;
import dev.guard.Guard;
import dev.guard.api.RefusedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Drives a guarded call through an {@link ArrivalSchedule} on a {@link ManualClock} and reports,
 * call by call, whether the guard admitted it; deterministic, single-threaded and without real
 * waiting.
 *
 * <p>The guard must be bound to an engine whose clock is the simulator's clock, and that clock must
 * be in the advancing mode, so that a guard which sleeps (pacing, prioritized borrowing) moves the
 * simulated time instead of blocking:
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();
 * GuardEngine engine = GuardEngine.builder().clock(clock).build();
 * Guard guard = Guard.of("createOrder").qps(10).warmUp(Duration.ofSeconds(10)).on(engine);
 *
 * SimulationReport report = TrafficSimulator.of(clock).run(guard,
 *     ArrivalSchedule.bursts(12, Duration.ofSeconds(1)).lasting(Duration.ofSeconds(16)));
 *
 * report.passesPerWindow(Duration.ofSeconds(1));   // [3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7, 10, ...]
 * }</pre>
 *
 * <p><b>How a run proceeds.</b> The simulation starts at the clock's reading when {@link #run} is
 * called. For each arrival, in order, the simulator advances the clock to the arrival's offset,
 * makes one call through the guard with an empty body, and records a {@link CallOutcome}: PASS, or
 * BLOCK when the guard throws a {@link RefusedException}, plus how far the clock moved during the
 * call (the guard's own wait). Time never goes backwards: when an earlier call's wait has already
 * carried the clock past an arrival's offset, that call is made late, at the current reading, and
 * its outcome says so. When the run returns, the clock reads the moment the last call finished,
 * so the engine's live statistics still describe the end of the run.
 *
 * <p>The report's windows are aligned to the simulation start, the engine's to the moment the
 * engine was built; build the engine just before the run (or start the run a whole number of
 * window lengths later) when the two should line up. A simulator holds only its clock; it is not
 * thread-safe, and exceptions other than a {@code RefusedException} propagate out of {@link #run}.
 */
public final class TrafficSimulator {

  private final ManualClock clock;

  private TrafficSimulator(ManualClock clock) {
    this.clock = clock;
  }

  /**
   * Creates a simulator that moves the given clock.
   *
   * <pre>{@code
   * TrafficSimulator simulator = TrafficSimulator.of(ManualClock.startingAt(-3_000_000_000L));
   * }</pre>
   *
   * @param clock the clock of the engine the simulated guards are bound to; advancing mode
   * @return the simulator
   * @throws NullPointerException if {@code clock} is null
   * @throws IllegalArgumentException if {@code clock} is in the parking mode, where a guard's sleep
   *     would wait forever for another thread to advance it
   */
  public static TrafficSimulator of(ManualClock clock) {
    Objects.requireNonNull(clock, "clock");
    if (clock.parks()) {
      throw DurationArguments.invalid("clock", clock,
          "must advance when slept on (new ManualClock() or ManualClock.startingAt(..))");
    }
    return new TrafficSimulator(clock);
  }

  /**
   * Makes one call through {@code guard} at each arrival of {@code schedule}, advancing the clock
   * between them, and reports the outcomes.
   *
   * <pre>{@code
   * SimulationReport report = TrafficSimulator.of(clock)
   *     .run(Guard.of("search").qps(5).on(engine), ArrivalSchedule.burst(8));
   * report.totalPasses();   // 5
   * }</pre>
   *
   * @param guard the guard under test, bound to an engine on this simulator's clock
   * @param schedule when the calls arrive, relative to the clock's current reading
   * @return the outcome of every call
   * @throws NullPointerException if an argument is null
   */
  public SimulationReport run(Guard guard, ArrivalSchedule schedule) {
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(schedule, "schedule");
    Runnable call = guard.decorateRunnable(() -> { });
    long start = clock.nanoTime();
    List<CallOutcome> outcomes = new ArrayList<>(schedule.size());
    List<Duration> offsets = schedule.offsets();
    for (int i = 0; i < offsets.size(); i++) {
      long due = offsets.get(i).toNanos();
      long elapsed = clock.nanoTime() - start;
      if (elapsed < due) {
        clock.advanceNanos(due - elapsed);
        elapsed = due;
      }
      CallOutcome.Verdict verdict = attempt(call);
      long waited = clock.nanoTime() - start - elapsed;
      outcomes.add(new CallOutcome(
          Duration.ofNanos(due), Duration.ofNanos(elapsed), verdict, Duration.ofNanos(waited)));
    }
    return new SimulationReport(guard.toString(), outcomes, schedule.length());
  }

  private static CallOutcome.Verdict attempt(Runnable call) {
    try {
      call.run();
      return CallOutcome.Verdict.PASS;
    } catch (RefusedException refused) {
      return CallOutcome.Verdict.REFUSE;
    }
  }

  /**
   * Returns a description naming the clock, for example {@code
   * TrafficSimulator[ManualClock[nanoTime=0]]}.
   *
   * @return a description of this simulator
   */
  @Override
  public String toString() {
    return "TrafficSimulator[" + clock + "]";
  }
}
