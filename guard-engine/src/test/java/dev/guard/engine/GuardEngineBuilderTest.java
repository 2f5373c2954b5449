package dev.guard.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GuardEngineBuilderTest {

  @Test
  void secondWindow_bucketLengthNotDividingOneSecond_isRejectedWithReason() {
    // 3 buckets over 900 ms: 300 ms buckets would straddle the seconds of the minute window
    assertThatThrownBy(() -> GuardEngine.builder().secondWindow(3, Duration.ofMillis(900)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("secondWindow")
        .hasMessageContaining("must divide 1000 ms")
        .hasMessageContaining("one second of the minute window")
        .hasMessageContaining("was 300 ms");
  }

  @Test
  void secondWindow_bucketLongerThanOneSecond_isRejected() {
    assertThatThrownBy(() -> GuardEngine.builder().secondWindow(2, Duration.ofSeconds(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 1500 ms");
  }

  @Test
  void secondWindow_eightBucketsOverTwoSeconds_measuresRatesOverTwoSeconds() {
    GuardEngine engine = GuardEngine.builder().secondWindow(8, Duration.ofSeconds(2)).build();
    for (int i = 0; i < 4; i++) {
      engine.resource("r").enter().close();
    }

    // four passes within the window read as 2 per second over its two seconds
    assertThat(engine.stats("r").passQps()).isEqualTo(2.0);
  }
}
