package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class SummaryTest {

  private static Summary.Line line(String name, long passed, long refused, long enginePassed) {
    return new Summary.Line(name, passed, refused, 16, 100.25, OptionalDouble.of(50), 4,
        enginePassed, refused);
  }

  @Test
  void line_rates_comeFromTheCounts() {
    Summary.Line line = line("search", 800, 480, 800);

    assertThat(line.passesPerSecond()).isCloseTo(50.0, within(1e-9));
    assertThat(line.admittedPercent()).isCloseTo(62.5, within(1e-9));
  }

  @Test
  void line_noCalls_admitsZeroPercent() {
    assertThat(line("idle", 0, 0, 0).admittedPercent()).isZero();
  }

  @Test
  void render_formatsOneRowPerEndpoint() {
    List<String> out = Summary.render(List.of(line("reports", 556, 404, 556)));

    assertThat(out.get(0)).startsWith("endpoint   passed refused admitted");
    assertThat(out.get(1))
        .isEqualTo("reports       556     404    57.9%     34.8  100.3 ms     50.0 ms        4");
  }

  @Test
  void render_engineAgrees_saysSoOnce() {
    List<String> out = Summary.render(List.of(line("a", 1, 2, 1), line("b", 3, 4, 3)));

    assertThat(out).last().isEqualTo(
        "The engine's own minute totals (totalPass, totalRefused) match these counts.");
  }

  @Test
  void render_engineDisagrees_namesTheEndpointAndTheEngineFigures() {
    List<String> out = Summary.render(List.of(line("a", 1, 2, 1), line("b", 3, 4, 5)));

    assertThat(out).last()
        .isEqualTo("engine.stats(\"b\") counted 5 passed / 4 refused in its last minute.");
  }

  @Test
  void render_noGap_showsADash() {
    Summary.Line line = new Summary.Line("x", 1, 0, 1, 0, OptionalDouble.empty(), 1, 1, 0);

    assertThat(Summary.render(List.of(line)).get(1)).contains("  - ms");
  }

  @Test
  void perUser_listsEachUsersCountsAndRate() {
    assertThat(Summary.perUser("profile", List.of("noisy", "ann"), new long[] {50, 40},
        new long[] {190, 0}, 10)).containsExactly(
        "profile per user   passed refused passes/s",
        "  noisy               50     190      5.0",
        "  ann                 40       0      4.0");
  }

  @Test
  void fromHistory_namesSecondsPeakAndRefusalsByKind() {
    java.util.Map<String, java.util.List<dev.guard.api.PeriodStats>> histories =
        new java.util.LinkedHashMap<>();
    histories.put("search", java.util.List.of(
        new dev.guard.api.PeriodStats(0, 1000, 50, 30, 30, 0, 0, 0, 0, 0, 50, 0, 500, 5, 0, -1),
        new dev.guard.api.PeriodStats(1000, 2000, 48, 2, 0, 0, 0, 2, 0, 0, 48, 0, 480, 5, 0, -1)));
    histories.put("idle", java.util.List.of());

    assertThat(Summary.fromHistory(histories)).containsExactly(
        "from engine.metricsHistory(name): seconds, busiest second, refusals by kind",
        "  search      2 s  peak   50 passed/s  refused: flow=30 system=2",
        "  idle        0 s  peak    0 passed/s  refused: none");
  }
}
