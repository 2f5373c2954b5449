package dev.guard.testkit;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;

/**
 * AssertJ assertions on a {@link SimulationReport}; obtain one with {@link
 * GuardAssertions#assertThat(SimulationReport)}.
 *
 * <pre>{@code
 * assertThat(report)
 *     .hasPassesPerWindow(Duration.ofSeconds(1), 3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7, 10, 10)
 *     .neverPassesMoreThanPerWindow(Duration.ofSeconds(1), 10)
 *     .hasTotalRefused(75);
 * }</pre>
 *
 * <p>Windows are those of {@link SimulationReport#passesPerWindow(Duration)}: aligned to the start
 * of the simulation, covering its whole length. Failure messages name the simulated guard, show
 * the expected and the actual values, and point at the first window or call that differs. Not
 * thread-safe, like all AssertJ assertions.
 */
public final class SimulationReportAssert
    extends AbstractAssert<SimulationReportAssert, SimulationReport> {

  SimulationReportAssert(@Nullable SimulationReport actual) {
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
      throw Checks.invalid("max", max, "must not be negative");
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
    Checks.notNegativeNanos("limit", limit);
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
   * @param expected the expected {@link SimulationReport#totalPasses()}
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
   * @param expected the expected {@link SimulationReport#totalRefused()}
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
    return index + " (" + Checks.millis(index * nanos) + "-" + Checks.millis((index + 1) * nanos)
        + " ms)";
  }

  private static String millis(Duration duration) {
    return Checks.millis(duration.toNanos());
  }
}
