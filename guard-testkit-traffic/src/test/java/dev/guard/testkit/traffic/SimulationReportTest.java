package dev.guard.testkit.traffic;

import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.testkit.traffic.TrafficSimulator.Report.CallOutcome.Verdict;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationReportTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  private static CallOutcome at(long millis, Verdict verdict) {
    return waited(millis, verdict, 0);
  }

  private static CallOutcome waited(long millis, Verdict verdict, long waitMillis) {
    Duration when = Duration.ofMillis(millis);
    return new CallOutcome(when, when, verdict, Duration.ofMillis(waitMillis));
  }

  private static TrafficSimulator.Report report(Duration length, CallOutcome... outcomes) {
    return new TrafficSimulator.Report("Guard[test]", List.of(outcomes), length);
  }

  @Test
  void passesPerWindow_windowsAlignedToTheStart_countsEachWindow() {
    TrafficSimulator.Report report = report(Duration.ofSeconds(2), at(0, Verdict.PASS),
        at(999, Verdict.PASS), at(1000, Verdict.PASS), at(1500, Verdict.REFUSE));

    assertThat(report.passesPerWindow(SECOND)).containsExactly(2, 1);
    assertThat(report.passesPerWindow(Duration.ofMillis(500))).containsExactly(1, 1, 1, 0);
    assertThat(report.refusalsPerWindow(SECOND)).containsExactly(0, 1);
  }

  @Test
  void passesPerWindow_callThatWaited_countsWhereItFinished() {
    TrafficSimulator.Report report = report(SECOND, waited(900, Verdict.PASS, 200));

    assertThat(report.passesPerWindow(SECOND)).containsExactly(0, 1);
  }

  @Test
  void passesPerWindow_quietEndOfSchedule_coveredWithZeros() {
    TrafficSimulator.Report report = report(Duration.ofMillis(3500), at(0, Verdict.PASS));

    assertThat(report.passesPerWindow(SECOND)).containsExactly(1, 0, 0, 0);
  }

  @Test
  void passesPerWindow_callExactlyAtTheEnd_getsItsOwnWindow() {
    TrafficSimulator.Report report = report(SECOND, at(0, Verdict.PASS), at(1000, Verdict.PASS));

    assertThat(report.passesPerWindow(SECOND)).containsExactly(1, 1);
  }

  @Test
  void passesPerWindow_noCallsAndNoLength_empty() {
    assertThat(report(Duration.ZERO).passesPerWindow(SECOND)).isEmpty();
  }

  @Test
  void passesPerWindow_zeroWindow_rejectedNamingWindow() {
    TrafficSimulator.Report report = report(SECOND, at(0, Verdict.PASS));

    assertThatIllegalArgumentException()
        .isThrownBy(() -> report.passesPerWindow(Duration.ZERO))
        .withMessage("window must be positive, was PT0S");
  }

  @Test
  void passesPerWindow_tooManyWindows_rejectedNamingWindow() {
    TrafficSimulator.Report report = report(Duration.ofHours(1), at(0, Verdict.PASS));

    assertThatIllegalArgumentException()
        .isThrownBy(() -> report.refusalsPerWindow(Duration.ofNanos(1)))
        .withMessage("window must split PT1H into at most 10000000 windows, was PT0.000000001S");
  }

  @Test
  void totals_mixedOutcomes_countPassesAndBlocks() {
    TrafficSimulator.Report report = report(SECOND, at(0, Verdict.PASS), at(0, Verdict.REFUSE),
        at(10, Verdict.REFUSE));

    assertThat(report.totalPasses()).isEqualTo(1);
    assertThat(report.totalRefused()).isEqualTo(2);
  }

  @Test
  void length_lastCallFinishesAfterTheSchedule_extendsToIt() {
    assertThat(report(SECOND, waited(800, Verdict.PASS, 400)).length())
        .isEqualTo(Duration.ofMillis(1200));
    assertThat(report(SECOND, at(800, Verdict.PASS)).length()).isEqualTo(SECOND);
  }

  @Test
  void outcomes_returnedList_isImmutable() {
    List<CallOutcome> outcomes = report(SECOND, at(0, Verdict.PASS)).outcomes();

    assertThatThrownBy(() -> outcomes.remove(0)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void toString_twoSeconds_showsTotalsAndAPerSecondTable() {
    TrafficSimulator.Report report = report(Duration.ofSeconds(2), at(0, Verdict.PASS),
        at(0, Verdict.REFUSE), at(1200, Verdict.PASS));

    assertThat(report.toString()).isEqualTo(String.join(System.lineSeparator(),
        "SimulationReport[3 calls: 2 passed, 1 refused, over 2000 ms]",
        "  window (ms)       pass  refused",
        "  0-1000               1        1",
        "  1000-2000            1        0"));
  }

  @Test
  void toString_longRun_cutsTheTableAfterSixtySeconds() {
    TrafficSimulator.Report report = report(Duration.ofSeconds(75), at(0, Verdict.PASS));

    assertThat(report.toString()).endsWith("  ... 15 more seconds").contains("59000-60000");
  }
}
