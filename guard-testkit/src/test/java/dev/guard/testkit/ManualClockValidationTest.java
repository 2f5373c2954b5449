package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ManualClockValidationTest {

  @Test
  void advance_negativeDuration_rejectedNamingDuration() {
    ManualClock clock = new ManualClock();

    assertThatIllegalArgumentException()
        .isThrownBy(() -> clock.advance(Duration.ofNanos(-1)))
        .withMessage("duration must not be negative, was PT-0.000000001S");
  }

  @Test
  void advance_durationBeyondLongNanos_rejectedNamingDuration() {
    ManualClock clock = new ManualClock();

    assertThatIllegalArgumentException()
        .isThrownBy(() -> clock.advance(Duration.ofDays(365L * 300)))
        .withMessageStartingWith("duration must fit in a long of nanoseconds, was ");
  }

  @Test
  void advance_nullDuration_throwsNamingDuration() {
    ManualClock clock = new ManualClock();

    assertThatNullPointerException().isThrownBy(() -> clock.advance(null)).withMessage("duration");
  }

  @Test
  void advanceMillis_negative_rejectedNamingMillis() {
    ManualClock clock = new ManualClock();

    assertThatIllegalArgumentException()
        .isThrownBy(() -> clock.advanceMillis(-5))
        .withMessage("millis must not be negative, was -5");
  }

  @Test
  void advanceMillis_beyondLongNanos_rejectedNamingMillis() {
    ManualClock clock = new ManualClock();
    long tooMany = Long.MAX_VALUE / 1_000_000L + 1;

    assertThatIllegalArgumentException()
        .isThrownBy(() -> clock.advanceMillis(tooMany))
        .withMessage("millis must fit in a long of nanoseconds, was " + tooMany);
  }

  @Test
  void advanceMillis_largestThatFits_accepted() {
    ManualClock clock = new ManualClock();

    clock.advanceMillis(Long.MAX_VALUE / 1_000_000L);

    assertThat(clock.nanoTime()).isEqualTo(Long.MAX_VALUE / 1_000_000L * 1_000_000L);
  }

  @Test
  void advanceNanos_negative_rejectedNamingNanos() {
    ManualClock clock = new ManualClock();

    assertThatIllegalArgumentException()
        .isThrownBy(() -> clock.advanceNanos(Long.MIN_VALUE))
        .withMessage("nanos must not be negative, was " + Long.MIN_VALUE);
  }

  @Test
  void advance_rejected_leavesReadingUnchanged() {
    ManualClock clock = ManualClock.startingAt(10L);

    assertThatIllegalArgumentException().isThrownBy(() -> clock.advanceNanos(-1));

    assertThat(clock.nanoTime()).isEqualTo(10L);
  }

  @Test
  void awaitSleepers_negativeCount_rejectedNamingCount() {
    ManualClock clock = ManualClock.parking();

    assertThatIllegalArgumentException()
        .isThrownBy(() -> clock.awaitSleepers(-1, Duration.ZERO))
        .withMessage("count must not be negative, was -1");
  }

  @Test
  void awaitSleepers_negativeTimeout_rejectedNamingTimeout() {
    ManualClock clock = ManualClock.parking();

    assertThatIllegalArgumentException()
        .isThrownBy(() -> clock.awaitSleepers(1, Duration.ofSeconds(-1)))
        .withMessage("timeout must not be negative, was PT-1S");
  }

  @Test
  void awaitSleepers_nullTimeout_throwsNamingTimeout() {
    ManualClock clock = ManualClock.parking();

    assertThatNullPointerException()
        .isThrownBy(() -> clock.awaitSleepers(1, null))
        .withMessage("timeout");
  }

}
