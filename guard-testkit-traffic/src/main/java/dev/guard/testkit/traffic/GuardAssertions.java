package dev.guard.testkit.traffic;

import dev.guard.testkit.ArrivalSchedule;
import dev.guard.testkit.internal.DurationArguments;
import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome;
import dev.guard.engine.NodeStats;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;

/**
 * Entry points of guard's AssertJ assertions: fluent checks on live statistics and on simulation
 * reports, with failure messages that name the resource and state the expected and actual values.
 *
 * <pre>{@code
 * import static dev.guard.testkit.traffic.GuardAssertions.assertThat;
 *
 * assertThat(engine.stats("createOrder"))
 *     .hasPassQps(5)
 *     .hasRefusedQps(3)
 *     .hasNoCallsRunning();
 * assertThat(report)
 *     .hasPassesPerWindow(Duration.ofSeconds(1), 5, 5, 5)
 *     .neverPassesMoreThanPerWindow(Duration.ofMillis(500), 5);
 * }</pre>
 *
 * <p>These methods can be statically imported next to AssertJ's {@code Assertions.assertThat}:
 * Java picks the most specific overload, which for guard's types is the one here. The assertion
 * types they return, {@link NodeStatsAssert} and {@link SimulationReportAssert}, are nested here:
 * tests reach them only through these entry points.
 */
public final class GuardAssertions {

  private GuardAssertions() {}

  /**
   * Starts assertions on a node's live statistics (a resource, an origin, a context, an entrance
   * or the engine's inbound traffic). Every check reads the statistics afresh, at the engine's
   * current time, and failure messages name the resource of a resource's statistics.
   *
   * <pre>{@code
   * assertThat(engine.stats("createOrder")).hasTotalPass(10).hasTotalRefused(2);
   * assertThat(engine.inboundStats()).hasConcurrency(0);
   * assertThat(engine.stats("createOrder").origin("checkout").orElseThrow()).hasPassQps(2);
   * }</pre>
   *
   * @param actual the statistics
   * @return the assertion
   */
  public static NodeStatsAssert assertThat(NodeStats actual) {
    return new NodeStatsAssert(actual);
  }

  /**
   * Starts assertions on the report of a {@link TrafficSimulator} run. Failure messages name the
   * simulated guard.
   *
   * <pre>{@code
   * assertThat(TrafficSimulator.of(clock).run(guard, ArrivalSchedule.burst(8)))
   *     .hasTotalPasses(5)
   *     .hasTotalRefused(3);
   * }</pre>
   *
   * @param actual the report
   * @return the assertion
   */
  public static SimulationReportAssert assertThat(TrafficSimulator.Report actual) {
    return new SimulationReportAssert(actual);
  }

  /**
   * AssertJ assertions on the live statistics of a resource or node; obtain one with {@link
   * GuardAssertions#assertThat(NodeStats)} or {@link GuardAssertions#assertThat(NodeStats)}.
   *
   * <pre>{@code
   * assertThat(engine.stats("createOrder"))
   *     .hasPassQps(5).hasRefusedQps(1)
   *     .hasTotalPass(5).hasTotalRefused(1)
   *     .hasNoCallsRunning();
   * }</pre>
   *
   * <p>Each check reads the statistic when it runs, at the engine's current time. Rates and response
   * times are doubles and match when they differ by at most one part in a billion (or {@code 1e-9}
   * near zero). A failure reads, for example, {@code Expected resource 'createOrder' to have passQps
   * 5.0 but was 3.0}. Not thread-safe, like all AssertJ assertions.
   */
  public static final class NodeStatsAssert extends AbstractAssert<NodeStatsAssert, NodeStats> {

    private static final double TOLERANCE = 1e-9;

    NodeStatsAssert(@Nullable NodeStats actual) {
      super(actual, NodeStatsAssert.class);
    }

    /**
     * Checks the rate of admitted calls, per second over the engine's second-level window.
     *
     * @param expected the expected {@link NodeStats#passQps()}
     * @return this assertion
     * @throws AssertionError if the statistics are null or the rate differs
     */
    public NodeStatsAssert hasPassQps(double expected) {
      return hasRate("passQps", NodeStats::passQps, expected);
    }

    /**
     * Checks the rate of refused calls, per second over the engine's second-level window.
     *
     * @param expected the expected {@link NodeStats#refusedQps()}
     * @return this assertion
     * @throws AssertionError if the statistics are null or the rate differs
     */
    public NodeStatsAssert hasRefusedQps(double expected) {
      return hasRate("refusedQps", NodeStats::refusedQps, expected);
    }

    /**
     * Checks the mean response time of the calls completed in the second-level window.
     *
     * @param expectedMillis the expected {@link NodeStats#averageRt()}, in milliseconds
     * @return this assertion
     * @throws AssertionError if the statistics are null or the value differs
     */
    public NodeStatsAssert hasAverageRt(double expectedMillis) {
      return hasRate("averageRt", NodeStats::averageRt, expectedMillis);
    }

    /**
     * Checks how many calls are running right now.
     *
     * @param expected the expected {@link NodeStats#concurrency()}
     * @return this assertion
     * @throws AssertionError if the statistics are null or the gauge differs
     */
    public NodeStatsAssert hasConcurrency(long expected) {
      return hasCount("concurrency", NodeStats::concurrency, expected);
    }

    /**
     * Checks that no call is running: every admitted call has exited.
     *
     * @return this assertion
     * @throws AssertionError if the statistics are null or the concurrency gauge is not 0
     */
    public NodeStatsAssert hasNoCallsRunning() {
      isNotNull();
      long running = actual.concurrency();
      if (running != 0) {
        failWithActualExpectedAndMessage(running, 0L,
            "%nExpected %s to have no calls running but concurrency was %s", subject(), running);
      }
      return this;
    }

    /**
     * Checks the number of admitted calls over the minute-level window.
     *
     * @param expected the expected {@link NodeStats#totalPass()}
     * @return this assertion
     * @throws AssertionError if the statistics are null or the total differs
     */
    public NodeStatsAssert hasTotalPass(long expected) {
      return hasCount("totalPass", NodeStats::totalPass, expected);
    }

    /**
     * Checks the number of refused calls over the minute-level window.
     *
     * @param expected the expected {@link NodeStats#totalRefused()}
     * @return this assertion
     * @throws AssertionError if the statistics are null or the total differs
     */
    public NodeStatsAssert hasTotalRefused(long expected) {
      return hasCount("totalRefused", NodeStats::totalRefused, expected);
    }

    /**
     * Checks the number of calls with a recorded business error over the minute-level window.
     *
     * @param expected the expected {@link NodeStats#totalException()}
     * @return this assertion
     * @throws AssertionError if the statistics are null or the total differs
     */
    public NodeStatsAssert hasTotalException(long expected) {
      return hasCount("totalException", NodeStats::totalException, expected);
    }

    private NodeStatsAssert hasRate(String name, ToDoubleFunction<NodeStats> read, double expected) {
      isNotNull();
      double value = read.applyAsDouble(actual);
      if (!(Math.abs(value - expected) <= TOLERANCE * Math.max(1, Math.abs(expected)))) {
        failWithActualExpectedAndMessage(value, expected, "%nExpected %s to have %s %s but was %s",
            subject(), name, expected, value);
      }
      return this;
    }

    private NodeStatsAssert hasCount(String name, ToLongFunction<NodeStats> read, long expected) {
      isNotNull();
      long value = read.applyAsLong(actual);
      if (value != expected) {
        failWithActualExpectedAndMessage(value, expected, "%nExpected %s to have %s %s but was %s",
            subject(), name, expected, value);
      }
      return this;
    }

    private String subject() {
      NodeStats stats = actual;
      return stats == null ? "node statistics"
          : stats.resource().map(name -> "resource '" + name + "'").orElse("node statistics");
    }
  }

  /**
   * AssertJ assertions on a {@link TrafficSimulator.Report}; obtain one with {@link
   * GuardAssertions#assertThat(TrafficSimulator.Report)}.
   *
   * <pre>{@code
   * assertThat(report)
   *     .hasPassesPerWindow(Duration.ofSeconds(1), 3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7, 10, 10)
   *     .neverPassesMoreThanPerWindow(Duration.ofSeconds(1), 10)
   *     .hasTotalRefused(75);
   * }</pre>
   *
   * <p>Windows are those of {@link TrafficSimulator.Report#passesPerWindow(Duration)}: aligned to the start
   * of the simulation, covering its whole length. Failure messages name the simulated guard, show
   * the expected and the actual values, and point at the first window or call that differs. Not
   * thread-safe, like all AssertJ assertions.
   */
  public static final class SimulationReportAssert
      extends AbstractAssert<SimulationReportAssert, TrafficSimulator.Report> {

    SimulationReportAssert(TrafficSimulator.@Nullable Report actual) {
      super(actual, SimulationReportAssert.class);
    }

    /**
     * Checks the number of admitted calls in every window, and the number of windows.
     *
     * @param window the window length; positive
     * @param expected the expected counts, one per window from the start
     * @return this assertion
     * @throws AssertionError if the report is null or the counts differ
     * @throws IllegalArgumentException if {@code window} is not positive
     */
    public SimulationReportAssert hasPassesPerWindow(Duration window, int... expected) {
      isNotNull();
      return hasPerWindow("passes", window, actual.passesPerWindow(window), expected);
    }

    /**
     * Checks the number of refused calls in every window, and the number of windows.
     *
     * @param window the window length; positive
     * @param expected the expected counts, one per window from the start
     * @return this assertion
     * @throws AssertionError if the report is null or the counts differ
     * @throws IllegalArgumentException if {@code window} is not positive
     */
    public SimulationReportAssert hasRefusalsPerWindow(Duration window, int... expected) {
      isNotNull();
      return hasPerWindow("refusals", window, actual.refusalsPerWindow(window), expected);
    }

    /**
     * Checks that no window admitted more than {@code max} calls.
     *
     * <pre>{@code
     * assertThat(report).neverPassesMoreThanPerWindow(Duration.ofSeconds(1), 10);
     * }</pre>
     *
     * @param window the window length; positive
     * @param max the most passes any window may hold; not negative
     * @return this assertion
     * @throws AssertionError if the report is null or a window holds more passes
     * @throws IllegalArgumentException if {@code window} is not positive or {@code max} negative
     */
    public SimulationReportAssert neverPassesMoreThanPerWindow(Duration window, int max) {
      if (max < 0) {
        throw DurationArguments.invalid("max", max, "must not be negative");
      }
      isNotNull();
      List<Integer> passes = actual.passesPerWindow(window);
      for (int i = 0; i < passes.size(); i++) {
        if (passes.get(i) > max) {
          failWithMessage("%nExpected %s to pass at most %s calls in every %s ms window, but window"
              + " %s had %s%nall windows: %s", actual.subject(), max, millis(window),
              span(window, i), passes.get(i), passes);
        }
      }
      return this;
    }

    /**
     * Checks that no call waited longer than {@code limit} (for pacing, the queueing bound).
     *
     * @param limit the longest allowed {@link CallOutcome#waited()}; not negative
     * @return this assertion
     * @throws AssertionError if the report is null or a call waited longer
     */
    public SimulationReportAssert neverWaitsLongerThan(Duration limit) {
      DurationArguments.notNegativeNanos("limit", limit);
      isNotNull();
      List<CallOutcome> outcomes = actual.outcomes();
      for (int i = 0; i < outcomes.size(); i++) {
        CallOutcome outcome = outcomes.get(i);
        if (outcome.waited().compareTo(limit) > 0) {
          failWithMessage("%nExpected %s to make no call wait longer than %s ms, but call %s"
              + " (decided at %s ms) waited %s ms", actual.subject(), millis(limit), i,
              millis(outcome.decidedAt()), millis(outcome.waited()));
        }
      }
      return this;
    }

    /**
     * Checks the total number of admitted calls.
     *
     * @param expected the expected {@link TrafficSimulator.Report#totalPasses()}
     * @return this assertion
     * @throws AssertionError if the report is null or the total differs
     */
    public SimulationReportAssert hasTotalPasses(int expected) {
      isNotNull();
      return hasTotal("passes", actual.totalPasses(), expected);
    }

    /**
     * Checks the total number of refused calls.
     *
     * @param expected the expected {@link TrafficSimulator.Report#totalRefused()}
     * @return this assertion
     * @throws AssertionError if the report is null or the total differs
     */
    public SimulationReportAssert hasTotalRefused(int expected) {
      isNotNull();
      return hasTotal("refusals", actual.totalRefused(), expected);
    }

    private SimulationReportAssert hasTotal(String what, int value, int expected) {
      if (value != expected) {
        failWithActualExpectedAndMessage(value, expected,
            "%nExpected %s to have %s %s in total but had %s", actual.subject(), expected, what,
            value);
      }
      return this;
    }

    private SimulationReportAssert hasPerWindow(
        String what, Duration window, List<Integer> counts, int[] expected) {
      Objects.requireNonNull(expected, "expected");
      List<Integer> wanted = Arrays.stream(expected).boxed().toList();
      if (!counts.equals(wanted)) {
        failWithActualExpectedAndMessage(counts, wanted,
            "%nExpected %s per %s ms window of %s to be%n  %s%nbut were%n  %s%n%s", what,
            millis(window), actual.subject(), wanted, counts,
            firstDifference(window, counts, wanted));
      }
      return this;
    }

    private static String firstDifference(
        Duration window, List<Integer> counts, List<Integer> wanted) {
      int common = Math.min(counts.size(), wanted.size());
      for (int i = 0; i < common; i++) {
        if (!counts.get(i).equals(wanted.get(i))) {
          return "first difference in window " + span(window, i) + ": expected " + wanted.get(i)
              + " but was " + counts.get(i);
        }
      }
      return "expected " + wanted.size() + " windows but the report has " + counts.size();
    }

    private static String span(Duration window, int index) {
      long nanos = window.toNanos();
      return index + " (" + DurationArguments.millis(index * nanos) + "-" + DurationArguments.millis((index + 1) * nanos)
          + " ms)";
    }

    private static String millis(Duration duration) {
      return DurationArguments.millis(duration.toNanos());
    }
  }
}
