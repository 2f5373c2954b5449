package dev.guard.engine.internal.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.guard.engine.internal.host.Readings.Reading;
import org.junit.jupiter.api.Test;

class ReadingsTest {

  private static final long SECOND = 1_000_000_000L;

  @Test
  void usableCpus_isTheSmallerOfQuotaAndProcessors() {
    assertThat(Readings.usableCpus(1.5, 64)).isEqualTo(1.5);
    assertThat(Readings.usableCpus(Double.POSITIVE_INFINITY, 8)).isEqualTo(8);
    assertThat(Readings.usableCpus(16, 4)).isEqualTo(4);
  }

  @Test
  void cpuUsage_isCpuTimeOverWallTimeTimesUsableCpus() {
    // a container with 2 of 64 cores used 1.5 CPU-seconds in one second: 75 % of its share
    Reading before = new Reading(0, 10 * SECOND, 2, 3.0, -1);
    Reading after = new Reading(SECOND, 10 * SECOND + 1_500_000_000L, 2, 3.0, -1);

    assertThat(Readings.cpuUsage(before, after)).isCloseTo(0.75, within(1e-9));
  }

  @Test
  void cpuUsage_isClampedToOne_andUnknownWithoutTwoReadings() {
    Reading before = new Reading(0, 0, 1, 0, -1);
    Reading after = new Reading(SECOND, 3 * SECOND, 1, 0, -1);

    assertThat(Readings.cpuUsage(before, after)).isEqualTo(1.0);
    assertThat(Readings.cpuUsage(null, after)).isEqualTo(-1);
    assertThat(Readings.cpuUsage(new Reading(0, -1, 1, 0, -1), after)).isEqualTo(-1);
  }

  @Test
  void cpuUsage_takesTheLargerOfMeasuredAndReported() {
    Reading before = new Reading(0, 0, 4, 0, 0.9);
    Reading after = new Reading(SECOND, SECOND, 4, 0, 0.9);

    assertThat(Readings.cpuUsage(before, after)).isEqualTo(0.9);
    assertThat(Readings.cpuUsage(null, after)).isEqualTo(0.9);
  }

  @Test
  void loadPerCpu_dividesByUsableCpus_orIsUnknown() {
    assertThat(Readings.loadPerCpu(new Reading(0, 0, 2, 3.0, -1))).isEqualTo(1.5);
    assertThat(Readings.loadPerCpu(new Reading(0, 0, 2, -1, -1))).isEqualTo(-1);
  }
}
