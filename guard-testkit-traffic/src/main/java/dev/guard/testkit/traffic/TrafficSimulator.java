package dev.guard.testkit.traffic;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.internal.DurationArguments;
import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome;
import dev.guard.Guard;
import dev.guard.api.RefusedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Collections;
import java.util.Locale;

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
 * TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard,
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
   * TrafficSimulator.Report report = TrafficSimulator.of(clock)
   *     .run(Guard.of("search").qps(5).on(engine), ArrivalSchedule.burst(8));
   * report.totalPasses();   // 5
   * }</pre>
   *
   * @param guard the guard under test, bound to an engine on this simulator's clock
   * @param schedule when the calls arrive, relative to the clock's current reading
   * @return the outcome of every call
   * @throws NullPointerException if an argument is null
   */
  public TrafficSimulator.Report run(Guard guard, ArrivalSchedule schedule) {
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
    return new TrafficSimulator.Report(guard.toString(), outcomes, schedule.length());
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

  /**
   * The result of a {@link TrafficSimulator} run: one {@link CallOutcome} per arrival, and counts of
   * passes and refusals per time window.
   *
   * <pre>{@code
   * TrafficSimulator.Report report = TrafficSimulator.of(clock).run(guard, schedule);
   * report.passesPerWindow(Duration.ofSeconds(1));   // [3, 3, 3, 3, 3, 4, ...]
   * report.totalPasses();
   * report.outcomes().get(0).verdict();
   * }</pre>
   *
   * <p>Windows are aligned to the start of the simulation: window {@code i} of length {@code w}
   * covers offsets {@code [i·w, (i+1)·w)}. A call counts in the window holding its {@link
   * CallOutcome#finishedAt()}, the moment it went ahead or was refused, which for a call that did
   * not wait is its decision time. The windows cover the whole {@link #length()}, so quiet windows at
   * the end of a schedule appear as zeros. Reports are immutable and thread-safe.
   */
  public static final class Report {

    /** The most windows a per-window count may return, to catch a mistyped window length. */
    static final int MAX_WINDOWS = 10_000_000;

    private static final int TABLE_ROWS = 60;

    private final String subject;
    private final List<CallOutcome> outcomes;
    private final long lengthNanos;

    /** The latest {@link CallOutcome#finishedAt()} in nanoseconds; -1 without outcomes. */
    private final long lastFinishNanos;

    Report(String subject, List<CallOutcome> outcomes, Duration scheduleLength) {
      this.subject = Objects.requireNonNull(subject, "subject");
      this.outcomes = List.copyOf(outcomes);
      this.lastFinishNanos =
          this.outcomes.stream().mapToLong(Report::finishNanos).max().orElse(-1);
      this.lengthNanos =
          Math.max(DurationArguments.notNegativeNanos("scheduleLength", scheduleLength), lastFinishNanos);
    }

    /**
     * Returns the outcome of every call, in the order the calls were made (the schedule's order).
     *
     * @return an immutable list, one entry per arrival
     */
    public List<CallOutcome> outcomes() {
      return outcomes;
    }

    /**
     * Returns how many calls the guard admitted.
     *
     * @return the number of passes
     */
    public int totalPasses() {
      return (int) outcomes.stream().filter(CallOutcome::passed).count();
    }

    /**
     * Returns how many calls the guard refused.
     *
     * @return the number of refusals
     */
    public int totalRefused() {
      return outcomes.size() - totalPasses();
    }

    /**
     * Returns the time the simulation covered: the schedule's length, or longer if the last call
     * finished waiting after it.
     *
     * @return the simulated span, from the start
     */
    public Duration length() {
      return Duration.ofNanos(lengthNanos);
    }

    /**
     * Counts the admitted calls in consecutive windows of the given length, starting at the start of
     * the simulation.
     *
     * <pre>{@code
     * report.passesPerWindow(Duration.ofMillis(500));   // e.g. [5, 0, 5, 0]
     * }</pre>
     *
     * @param window the window length; positive
     * @return an immutable list with one count per window, covering {@link #length()}
     * @throws IllegalArgumentException if {@code window} is not positive or would give more than ten
     *     million windows
     */
    public List<Integer> passesPerWindow(Duration window) {
      return countPerWindow(window, CallOutcome.Verdict.PASS);
    }

    /**
     * Counts the refused calls in consecutive windows of the given length, starting at the start of
     * the simulation.
     *
     * @param window the window length; positive
     * @return an immutable list with one count per window, covering {@link #length()}
     * @throws IllegalArgumentException if {@code window} is not positive or would give more than ten
     *     million windows
     */
    public List<Integer> refusalsPerWindow(Duration window) {
      return countPerWindow(window, CallOutcome.Verdict.REFUSE);
    }

    /**
     * Returns the totals and a table of passes and refusals per second (the first 60 seconds), for
     * example:
     *
     * <pre>
     * Report[24 calls: 6 passed, 18 refused, over 2000 ms]
     *   window (ms)       pass  refused
     *   0-1000               3        9
     *   1000-2000            3        9
     * </pre>
     *
     * @return a readable summary of this report
     */
    @Override
    public String toString() {
      StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
          "SimulationReport[%d calls: %d passed, %d refused, over %s ms]",
          outcomes.size(), totalPasses(), totalRefused(), DurationArguments.millis(lengthNanos)));
      Duration second = Duration.ofSeconds(1);
      List<Integer> passes = countPerWindow(second, CallOutcome.Verdict.PASS);
      List<Integer> refusals = countPerWindow(second, CallOutcome.Verdict.REFUSE);
      if (!passes.isEmpty()) {
        text.append(String.format(Locale.ROOT, "%n  %-16s %5s %8s", "window (ms)", "pass", "refused"));
      }
      for (int i = 0; i < Math.min(passes.size(), TABLE_ROWS); i++) {
        String span = (i * 1000L) + "-" + ((i + 1) * 1000L);
        text.append(
            String.format(Locale.ROOT, "%n  %-16s %5d %8d", span, passes.get(i), refusals.get(i)));
      }
      if (passes.size() > TABLE_ROWS) {
        text.append(
            String.format(Locale.ROOT, "%n  ... %d more seconds", passes.size() - TABLE_ROWS));
      }
      return text.toString();
    }

    /** What was simulated, for failure messages: the guard's description. */
    String subject() {
      return subject;
    }

    private List<Integer> countPerWindow(Duration window, CallOutcome.Verdict verdict) {
      long windowNanos = DurationArguments.positiveNanos("window", window);
      long windows = lengthNanos / windowNanos + (lengthNanos % windowNanos == 0 ? 0 : 1);
      if (lastFinishNanos >= 0) {
        windows = Math.max(windows, lastFinishNanos / windowNanos + 1);
      }
      if (windows > MAX_WINDOWS) {
        throw DurationArguments.invalid("window", window, "must split " + length() + " into at most "
            + MAX_WINDOWS + " windows");
      }
      List<Integer> counts = new ArrayList<>(Collections.nCopies((int) windows, 0));
      for (CallOutcome outcome : outcomes) {
        if (outcome.verdict() == verdict) {
          int index = (int) (finishNanos(outcome) / windowNanos);
          counts.set(index, counts.get(index) + 1);
        }
      }
      return List.copyOf(counts);
    }

    private static long finishNanos(CallOutcome outcome) {
      return outcome.finishedAt().toNanos();
    }

    /**
     * What happened to one simulated call: when it was due, when the guard decided on it, whether it
     * passed, and how long the guard made it wait. All times are offsets from the start of the
     * simulation.
     *
     * <pre>{@code
     * CallOutcome third = report.outcomes().get(2);
     * third.verdict();      // PASS or REFUSE
     * third.waited();       // e.g. PT0.2S for a paced call that queued
     * third.finishedAt();   // decidedAt + waited: when the call went ahead or was refused
     * }</pre>
     *
     * @param scheduledAt when the call was due by its {@link ArrivalSchedule}
     * @param decidedAt when the call was made; later than {@code scheduledAt} only if an earlier call's
     *     wait moved the clock past the due time, so the call arrived late
     * @param verdict whether the guard admitted the call
     * @param waited how far the guard's own sleep moved the clock during the call (pacing queueing, a
     *     prioritized call borrowing a future window); zero for most calls
     */
    public record CallOutcome(
        Duration scheduledAt, Duration decidedAt, Verdict verdict, Duration waited) {

      /** Whether a simulated call went ahead. */
      public enum Verdict {
        /** The guard admitted the call and its body ran. */
        PASS,
        /** The guard refused the call with a {@code RefusedException}; its body did not run. */
        REFUSE
      }

      /**
       * Validates the fields.
       *
       * @param scheduledAt when the call was due; not negative
       * @param decidedAt when the call was made; not before {@code scheduledAt}
       * @param verdict whether the guard admitted the call
       * @param waited how long the call waited; not negative
       * @throws NullPointerException if a field is null
       * @throws IllegalArgumentException if a duration is negative or {@code decidedAt} lies before
       *     {@code scheduledAt}
       */
      public CallOutcome {
        DurationArguments.notNegativeNanos("scheduledAt", scheduledAt);
        DurationArguments.notNegativeNanos("decidedAt", decidedAt);
        Objects.requireNonNull(verdict, "verdict");
        DurationArguments.notNegativeNanos("waited", waited);
        if (decidedAt.compareTo(scheduledAt) < 0) {
          throw DurationArguments.invalid("decidedAt", decidedAt, "must not be before scheduledAt " + scheduledAt);
        }
      }

      /**
       * Tells whether the guard admitted the call.
       *
       * @return {@code true} for {@link Verdict#PASS}
       */
      public boolean passed() {
        return verdict == Verdict.PASS;
      }

      /**
       * Returns when the call went ahead or was refused: {@code decidedAt + waited}. A simulation
       * report counts the call in the window holding this instant.
       *
       * @return the offset at which the call finished waiting
       */
      public Duration finishedAt() {
        return decidedAt.plus(waited);
      }
    }
  }
}
