package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WindowGeometryTest {

  @Test
  void constructor_zeroSampleCount_namesFieldAndValue() {
    assertThatThrownBy(() -> new WindowGeometry(0, 1000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sampleCount must be > 0, was 0");
  }

  @Test
  void constructor_negativeInterval_namesFieldAndValue() {
    assertThatThrownBy(() -> new WindowGeometry(2, -5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("intervalMs must be > 0, was -5");
  }

  @Test
  void constructor_intervalNotDivisible_namesFieldAndValue() {
    assertThatThrownBy(() -> new WindowGeometry(3, 1000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("intervalMs must be a multiple of sampleCount 3, was 1000");
  }

  @Test
  void bucketLengthMs_defaultSecond_is500() {
    assertThat(WindowGeometry.SECOND_DEFAULT.bucketLengthMs()).isEqualTo(500);
  }

  @Test
  void intervalSec_minute_is60() {
    assertThat(WindowGeometry.MINUTE.intervalSec()).isEqualTo(60.0);
    assertThat(WindowGeometry.MINUTE.bucketLengthMs()).isEqualTo(1000);
  }

  @Test
  void intervalSec_fractionalSecond_keepsFraction() {
    assertThat(new WindowGeometry(5, 250).intervalSec()).isEqualTo(0.25);
  }
}
