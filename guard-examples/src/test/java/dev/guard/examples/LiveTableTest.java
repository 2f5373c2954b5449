package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LiveTableTest {

  @Test
  void header_centersTheNamesAboveTheirColumns() {
    assertThat(LiveTable.header(List.of("search", "reports"))).containsExactly(
        " sec │    search     │    reports    ",
        "     │ passed refused│ passed refused");
  }

  @Test
  void row_rightAlignsEveryCount() {
    assertThat(LiveTable.row("12", new long[] {50, 13}, new long[] {30, 87}))
        .isEqualTo("  12 │     50      30│     13      87");
  }

  @Test
  void row_linesUpWithTheHeader() {
    String header = LiveTable.header(List.of("a", "b")).get(1);
    String row = LiveTable.row("late", new long[] {1, 2}, new long[] {3, 4});

    assertThat(row).hasSameSizeAs(header);
    assertThat(row.indexOf('│')).isEqualTo(header.indexOf('│'));
    assertThat(row.lastIndexOf('│')).isEqualTo(header.lastIndexOf('│'));
  }

  @Test
  void row_lengthsDiffer_isRejected() {
    assertThatThrownBy(() -> LiveTable.row("1", new long[1], new long[2]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("passed and refused must have the same length, were 1 and 2");
  }
}
