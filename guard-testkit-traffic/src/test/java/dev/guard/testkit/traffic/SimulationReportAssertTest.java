package dev.guard.testkit.traffic;

import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome;
import static dev.guard.testkit.traffic.GuardAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome.Verdict;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationReportAssertTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  /** Passes at 0, 0, 300 and 1200 ms and a refused at 1500 ms, over two seconds. */
  private static TrafficSimulator.Report report() {
    return new TrafficSimulator.Report("Guard[R]", List.of(at(0, Verdict.PASS), at(0, Verdict.PASS),
        at(300, Verdict.PASS), at(1200, Verdict.PASS), at(1500, Verdict.REFUSE)),
        Duration.ofSeconds(2));
  }

  private static CallOutcome at(long millis, Verdict verdict) {
    Duration when = Duration.ofMillis(millis);
    return new CallOutcome(when, when, verdict, Duration.ZERO);
  }

  @Test
  void perWindowChecks_matchingCounts_pass() {
    assertThat(report())
        .hasPassesPerWindow(SECOND, 3, 1)
        .hasPassesPerWindow(Duration.ofMillis(500), 3, 0, 1, 0)
        .hasRefusalsPerWindow(SECOND, 0, 1)
        .hasTotalPasses(4)
        .hasTotalRefused(1);
  }

  @Test
  void hasPassesPerWindow_differentCount_failsPointingAtTheFirstDifference() {
    assertThatThrownBy(() -> assertThat(report()).hasPassesPerWindow(SECOND, 3, 2))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected passes per 1000 ms window of Guard[R] to be")
        .hasMessageContaining("[3, 2]")
        .hasMessageContaining("[3, 1]")
        .hasMessageContaining("first difference in window 1 (1000-2000 ms): expected 2 but was 1");
  }

  @Test
  void hasBlocksPerWindow_fewerWindowsExpected_failsNamingTheWindowCounts() {
    assertThatThrownBy(() -> assertThat(report()).hasRefusalsPerWindow(SECOND, 0))
        .hasMessageContaining("expected 1 windows but the report has 2");
  }

  @Test
  void neverPassesMoreThanPerWindow_withinTheLimit_passes() {
    assertThat(report()).neverPassesMoreThanPerWindow(SECOND, 3);
  }

  @Test
  void neverPassesMoreThanPerWindow_windowOverTheLimit_failsNamingTheWindow() {
    assertThatThrownBy(() -> assertThat(report()).neverPassesMoreThanPerWindow(SECOND, 2))
        .hasMessageContaining("Expected Guard[R] to pass at most 2 calls in every 1000 ms window,"
            + " but window 0 (0-1000 ms) had 3")
        .hasMessageContaining("all windows: [3, 1]");
  }

  @Test
  void neverPassesMoreThanPerWindow_negativeMax_rejectedNamingMax() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> assertThat(report()).neverPassesMoreThanPerWindow(SECOND, -1))
        .withMessage("max must not be negative, was -1");
  }

  @Test
  void neverWaitsLongerThan_longWait_failsNamingTheCall() {
    TrafficSimulator.Report paced = new TrafficSimulator.Report("Guard[P]", List.of(at(0, Verdict.PASS),
        new CallOutcome(Duration.ZERO, Duration.ZERO, Verdict.PASS, Duration.ofMillis(600))),
        Duration.ZERO);

    assertThat(paced).neverWaitsLongerThan(Duration.ofMillis(600));
    assertThatThrownBy(() -> assertThat(paced).neverWaitsLongerThan(Duration.ofMillis(500)))
        .hasMessageContaining("Expected Guard[P] to make no call wait longer than 500 ms,"
            + " but call 1 (decided at 0 ms) waited 600 ms");
  }

  @Test
  void hasTotalPasses_differentTotal_failsWithExpectedAndActual() {
    assertThatThrownBy(() -> assertThat(report()).hasTotalPasses(5))
        .hasMessageContaining("Expected Guard[R] to have 5 passes in total but had 4");
  }

  @Test
  void assertThat_nullReport_fails() {
    assertThatThrownBy(() -> assertThat((TrafficSimulator.Report) null).hasTotalRefused(0))
        .hasMessageContaining("Expecting actual not to be null");
  }
}
