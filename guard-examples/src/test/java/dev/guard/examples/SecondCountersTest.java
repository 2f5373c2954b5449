package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecondCountersTest {

  private static final long SECOND = 1_000_000_000L;
  private static final long START = 7_000L;

  @Test
  void record_withinASecond_countsInThatSecond() {
    SecondCounters counters = new SecondCounters(START, 3);

    counters.recordPass(START);
    counters.recordPass(START + SECOND - 1);
    counters.recordRefused(START + SECOND);
    counters.recordPass(START + 2 * SECOND + 5);

    assertThat(counters.passedPerSecond()).containsExactly(2, 0, 1);
    assertThat(counters.refusedPerSecond()).containsExactly(0, 1, 0);
  }

  @Test
  void record_afterTheLastSecond_landsInTheLateSlotAndStillCountsInTotals() {
    SecondCounters counters = new SecondCounters(START, 2);

    counters.recordPass(START + 2 * SECOND);
    counters.recordRefused(START + 50 * SECOND);

    assertThat(counters.passedPerSecond()).containsExactly(0, 0);
    assertThat(counters.late()).isEqualTo(2);
    assertThat(counters.passed(2)).isEqualTo(1);
    assertThat(counters.totalPassed()).isEqualTo(1);
    assertThat(counters.totalRefused()).isEqualTo(1);
  }

  @Test
  void record_beforeTheStart_countsInTheFirstSecond() {
    SecondCounters counters = new SecondCounters(START, 2);

    counters.recordRefused(START - 3);

    assertThat(counters.refused(0)).isEqualTo(1);
  }

  @Test
  void record_acrossNanoTimeOverflow_usesElapsedTime() {
    long start = Long.MAX_VALUE - SECOND / 2;
    SecondCounters counters = new SecondCounters(start, 2);

    counters.recordPass(start + SECOND); // wraps around to a negative reading

    assertThat(counters.passedPerSecond()).containsExactly(0, 1);
  }

  @Test
  void totals_sumEverySecond() {
    SecondCounters counters = new SecondCounters(START, 4);
    for (int second = 0; second < 4; second++) {
      for (int i = 0; i <= second; i++) {
        counters.recordPass(START + second * SECOND);
        counters.recordRefused(START + second * SECOND);
      }
    }

    assertThat(counters.totalPassed()).isEqualTo(10);
    assertThat(counters.totalRefused()).isEqualTo(10);
    assertThat(counters.late()).isZero();
  }

  @Test
  void constructor_zeroSeconds_namesOptionAndValue() {
    assertThatThrownBy(() -> new SecondCounters(START, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seconds must be > 0, was 0");
  }
}
