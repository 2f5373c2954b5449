package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ArrivalScheduleValidationTest {

  @Test
  void burst_zeroCalls_rejectedNamingCalls() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.burst(0))
        .withMessage("calls must be from 1 to 10000000, was 0");
  }

  @Test
  void steady_tooManyCalls_rejectedNamingCalls() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.steady(10_000_001, Duration.ofSeconds(1)))
        .withMessage("calls must be from 1 to 10000000, was 10000001");
  }

  @Test
  void bursts_zeroPeriod_rejectedNamingPeriod() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.bursts(3, Duration.ZERO))
        .withMessage("period must be positive, was PT0S");
  }

  @Test
  void steady_negativePeriod_rejectedNamingPeriod() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.steady(3, Duration.ofMillis(-1)))
        .withMessage("period must not be negative, was PT-0.001S");
  }

  @Test
  void bursts_periodBeyondLongNanos_rejectedNamingPeriod() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.bursts(1, Duration.ofDays(365L * 300)))
        .withMessageStartingWith("period must fit in a long of nanoseconds, was ");
  }

  @Test
  void idle_negativeLength_rejectedNamingLength() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.idle(Duration.ofSeconds(-1)))
        .withMessage("length must not be negative, was PT-1S");
  }

  @Test
  void atMillis_decreasingOffset_rejectedNamingTheIndex() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.atMillis(0, 500, 400))
        .withMessage(
            "offsetsMillis[2] must not be smaller than the offset before it (500), was 400");
  }

  @Test
  void atMillis_negativeOffset_rejectedNamingTheIndex() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.atMillis(-1, 5))
        .withMessage("offsetsMillis[0] must not be negative, was -1");
  }

  @Test
  void atMillis_offsetBeyondLongNanos_rejectedNamingTheIndex() {
    long tooLarge = Long.MAX_VALUE / 1_000_000L + 1;

    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.atMillis(0, tooLarge))
        .withMessage("offsetsMillis[1] must fit in a long of nanoseconds, was " + tooLarge);
  }

  @Test
  void atNanos_decreasingOffset_rejectedNamingTheIndex() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.atNanos(5, 4))
        .withMessage("offsetsNanos[1] must not be smaller than the offset before it (5), was 4");
  }

  @Test
  void lasting_scheduleOfZeroLength_illegalState() {
    assertThatIllegalStateException()
        .isThrownBy(() -> ArrivalSchedule.burst(3).lasting(Duration.ofSeconds(1)))
        .withMessageContaining("lasting repeats a schedule of positive length");
  }

  @Test
  void lasting_zeroTotal_rejectedNamingTotal() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ArrivalSchedule.bursts(3, Duration.ofSeconds(1)).lasting(Duration.ZERO))
        .withMessage("total must be positive, was PT0S");
  }

  @Test
  void lasting_moreThanMaxArrivals_rejectedNamingTotal() {
    ArrivalSchedule everyMilli = ArrivalSchedule.bursts(1, Duration.ofMillis(1));

    assertThatIllegalArgumentException()
        .isThrownBy(() -> everyMilli.lasting(Duration.ofHours(3)))
        .withMessage("total must give at most 10000000 arrivals, was PT3H");
  }

  @Test
  void then_lengthBeyondLongNanos_rejectedNamingNext() {
    ArrivalSchedule half = ArrivalSchedule.idle(Duration.ofNanos(Long.MAX_VALUE / 2 + 1));

    assertThatIllegalArgumentException()
        .isThrownBy(() -> half.then(half))
        .withMessageStartingWith("next must end within Long.MAX_VALUE nanoseconds of the start");
  }

  @Test
  void nullArguments_throwNamingTheParameter() {
    assertThatNullPointerException().isThrownBy(() -> ArrivalSchedule.bursts(1, null))
        .withMessage("period");
    assertThatNullPointerException().isThrownBy(() -> ArrivalSchedule.atMillis((long[]) null))
        .withMessage("offsetsMillis");
    assertThatNullPointerException().isThrownBy(() -> ArrivalSchedule.burst(1).then(null))
        .withMessage("next");
    assertThatNullPointerException().isThrownBy(() -> ArrivalSchedule.idle(null))
        .withMessage("length");
  }
}
