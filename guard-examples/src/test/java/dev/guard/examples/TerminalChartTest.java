package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TerminalChartTest {

  private final TerminalChart chart = new TerminalChart(60);

  @Test
  void callsPerColumn_busiestSecondFits_isOne() {
    assertThat(chart.callsPerColumn(0)).isEqualTo(1);
    assertThat(chart.callsPerColumn(60)).isEqualTo(1);
  }

  @Test
  void callsPerColumn_busiestSecondTooWide_roundsUpToAWholeNumber() {
    assertThat(chart.callsPerColumn(61)).isEqualTo(2);
    assertThat(chart.callsPerColumn(120)).isEqualTo(2);
    assertThat(chart.callsPerColumn(121)).isEqualTo(3);
  }

  @Test
  void bar_scaled_showsPassedThenBlockedThenPadding() {
    String bar = chart.bar(13, 87, 2);

    assertThat(bar).isEqualTo("█".repeat(7) + "░".repeat(43) + " ".repeat(10));
  }

  @Test
  void bar_busiestSecond_fillsTheWidthExactly() {
    long perColumn = chart.callsPerColumn(119);

    assertThat(chart.bar(40, 79, perColumn)).isEqualTo("█".repeat(20) + "░".repeat(40));
  }

  @Test
  void bar_anyCounts_isAlwaysTheChartWidth() {
    for (long passed = 0; passed <= 120; passed += 7) {
      for (long refused = 0; passed + refused <= 120; refused += 5) {
        assertThat(chart.bar(passed, refused, chart.callsPerColumn(120))).hasSize(60);
      }
    }
  }

  @Test
  void bar_noCalls_isBlank() {
    assertThat(chart.bar(0, 0, 1)).isBlank().hasSize(60);
  }

  @Test
  void bar_roundsTheTotalNotEachPart() {
    // 1 + 1 calls at 4 per column: half a column in total rounds up to one, a refused one
    assertThat(chart.bar(1, 1, 4).strip()).isEqualTo("░");
  }

  @Test
  void render_oneLinePerSecond_afterATitleWithTheScale() {
    List<String> lines = new TerminalChart(10).render("checkout", new long[] {13, 40},
        new long[] {87, 60});

    assertThat(lines).containsExactly(
        "checkout   █ passed  ░ refused  (one column = 10 calls)",
        "   1s █░░░░░░░░░   13   87",
        "   2s ████░░░░░░   40   60");
  }

  @Test
  void render_quietSeries_saysOneCall() {
    List<String> lines = new TerminalChart(10).render("t", new long[] {1}, new long[] {0});

    assertThat(lines.get(0)).endsWith("(one column = 1 call)");
    assertThat(lines.get(1)).isEqualTo("   1s █             1    0");
  }

  @Test
  void render_warmUpCurve_passedColumnsNeverShrink() {
    long[] passed = {13, 13, 14, 15, 16, 17, 18, 20, 22, 26, 31, 40, 40};
    long[] refused = new long[passed.length];
    for (int i = 0; i < passed.length; i++) {
      refused[i] = 100 - passed[i];
    }

    List<String> lines = chart.render("checkout", passed, refused);

    int previous = 0;
    for (String line : lines.subList(1, lines.size())) {
      int columns = (int) line.chars().filter(c -> c == TerminalChart.PASSED).count();
      assertThat(columns).isGreaterThanOrEqualTo(previous);
      previous = columns;
    }
    assertThat(previous).isEqualTo(20);
  }

  @Test
  void render_lengthsDiffer_isRejected() {
    assertThatThrownBy(() -> chart.render("t", new long[2], new long[3]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("passed and refused must have the same length, were 2 and 3");
  }

  @Test
  void constructor_zeroWidth_namesOptionAndValue() {
    assertThatThrownBy(() -> new TerminalChart(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("width must be > 0, was 0");
  }

  @Test
  void render_withFailures_showsThemAfterThePassesAndCountsThem() {
    List<String> lines = new TerminalChart(10).render("inventory", new long[] {40, 1},
        new long[] {20, 1}, new long[] {0, 39});

    assertThat(lines).containsExactly(
        "inventory   █ passed  ▓ failed  ░ refused  (one column = 4 calls)",
        "   1s █████▓▓▓▓▓   40    0   20",
        "   2s ░░░░░░░░░░    1   39    1");
  }
}
