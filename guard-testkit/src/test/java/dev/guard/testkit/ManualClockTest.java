package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ManualClockTest {

  @Test
  void constructor_noArguments_readsZero() {
    assertThat(new ManualClock().nanoTime()).isZero();
  }

  @Test
  void startingAt_anyValue_readsThatValue() {
    assertThat(ManualClock.startingAt(-42L).nanoTime()).isEqualTo(-42L);
  }

  @Test
  void nanoTime_notAdvanced_staysTheSame() {
    ManualClock clock = ManualClock.startingAt(7L);

    clock.nanoTime();

    assertThat(clock.nanoTime()).isEqualTo(7L);
  }

  @Test
  void advance_duration_movesByItsNanos() {
    ManualClock clock = new ManualClock();

    clock.advance(Duration.ofSeconds(2).plusNanos(3));

    assertThat(clock.nanoTime()).isEqualTo(2_000_000_003L);
  }

  @Test
  void advanceMillis_positive_movesByAMillionNanosEach() {
    ManualClock clock = new ManualClock();

    clock.advanceMillis(15);

    assertThat(clock.nanoTime()).isEqualTo(15_000_000L);
  }

  @Test
  void advanceNanos_positive_movesByThatMany() {
    ManualClock clock = ManualClock.startingAt(100L);

    clock.advanceNanos(23);

    assertThat(clock.nanoTime()).isEqualTo(123L);
  }

  @Test
  void advance_zero_leavesReadingUnchanged() {
    ManualClock clock = ManualClock.startingAt(5L);

    clock.advance(Duration.ZERO);
    clock.advanceMillis(0);
    clock.advanceNanos(0);

    assertThat(clock.nanoTime()).isEqualTo(5L);
  }

  @Test
  void advance_severalSteps_accumulate() {
    ManualClock clock = new ManualClock();

    clock.advanceMillis(1);
    clock.advanceNanos(1);
    clock.advance(Duration.ofMillis(1));

    assertThat(clock.nanoTime()).isEqualTo(2_000_001L);
  }

  @Test
  void advance_pastLongMaxValue_wrapsToNegativeReading() {
    ManualClock clock = ManualClock.startingAt(Long.MAX_VALUE - 1);

    clock.advanceNanos(3);

    assertThat(clock.nanoTime()).isEqualTo(Long.MIN_VALUE + 1);
  }

  @Test
  void advance_pastLongMaxValue_elapsedBySubtractionStaysRight() {
    ManualClock clock = ManualClock.startingAt(Long.MAX_VALUE - 5_000_000_000L);
    long start = clock.nanoTime();

    clock.advance(Duration.ofSeconds(8));

    assertThat(clock.nanoTime() - start).isEqualTo(8_000_000_000L);
  }

  @Test
  void advance_fromNegativeStart_crossesZero() {
    ManualClock clock = ManualClock.startingAt(-1_500_000L);

    clock.advanceMillis(2);

    assertThat(clock.nanoTime()).isEqualTo(500_000L);
  }

  @Test
  void millis_positiveReading_roundsDown() {
    ManualClock clock = ManualClock.startingAt(2_999_999L);

    assertThat(clock.millis()).isEqualTo(2L);
  }

  @Test
  void millis_negativeReadingWithinAMillisecond_isMinusOne() {
    ManualClock clock = ManualClock.startingAt(-1L);

    assertThat(clock.millis()).isEqualTo(-1L);
  }

  @Test
  void millis_negativeWholeMillisecond_isExact() {
    ManualClock clock = ManualClock.startingAt(-1_000_000L);

    assertThat(clock.millis()).isEqualTo(-1L);
  }

  @Test
  void millis_negativeJustPastAMillisecond_floorsTowardNegativeInfinity() {
    ManualClock clock = ManualClock.startingAt(-1_000_001L);

    assertThat(clock.millis()).isEqualTo(-2L);
  }

  @Test
  void millis_longMinValue_floors() {
    ManualClock clock = ManualClock.startingAt(Long.MIN_VALUE);

    assertThat(clock.millis()).isEqualTo(Math.floorDiv(Long.MIN_VALUE, 1_000_000L));
  }

  @Test
  void toString_advancingClock_showsReading() {
    ManualClock clock = ManualClock.startingAt(1234L);

    assertThat(clock).hasToString("ManualClock[nanoTime=1234]");
  }

  @Test
  void sleepers_advancingClock_isZero() {
    assertThat(new ManualClock().sleepers()).isZero();
  }
}
