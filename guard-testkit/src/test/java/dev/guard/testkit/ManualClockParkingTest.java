package dev.guard.testkit;

import static dev.guard.testkit.SleepingThread.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.testing.Together;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Sleeping on a clock in the parking mode, with real threads coordinated by latches. */
class ManualClockParkingTest {

  private static final Duration HUNDRED_MS = Duration.ofMillis(100);

  private final List<SleepingThread> started = new ArrayList<>();

  @AfterEach
  void stopLeftoverSleepers() throws InterruptedException {
    Thread.interrupted();
    for (SleepingThread sleeping : started) {
      sleeping.stop();
    }
  }

  private SleepingThread sleep(ManualClock clock, Duration nap) {
    SleepingThread sleeping = SleepingThread.start(clock, nap);
    started.add(sleeping);
    return sleeping;
  }

  private SleepingThread sleepParked(ManualClock clock, Duration nap) throws InterruptedException {
    int before = clock.sleepers();
    SleepingThread sleeping = sleep(clock, nap);
    assertThat(clock.awaitSleepers(before + 1, PATIENCE)).as("sleeper parked").isTrue();
    return sleeping;
  }

  @Test
  void sleep_notAdvanced_parksWithoutMovingTheClock() throws InterruptedException {
    ManualClock clock = ManualClock.parking();

    SleepingThread sleeping = sleepParked(clock, HUNDRED_MS);

    assertThat(clock.sleepers()).isEqualTo(1);
    assertThat(clock.nanoTime()).isZero();
    assertThat(sleeping.hasFinished()).isFalse();
  }

  @Test
  void sleep_advancedOneNanoShort_staysParked() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread sleeping = sleepParked(clock, HUNDRED_MS);

    clock.advance(HUNDRED_MS.minusNanos(1));

    assertThat(clock.sleepers()).isEqualTo(1);
    assertThat(sleeping.hasFinished()).isFalse();
  }

  @Test
  void sleep_advancedToDeadline_returnsNormally() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread sleeping = sleepParked(clock, HUNDRED_MS);

    clock.advance(HUNDRED_MS);

    assertThat(sleeping.awaitFinished()).isTrue();
    assertThat(sleeping.thrown()).isNull();
  }

  @Test
  void sleep_advancedToDeadline_leavesSleepersBeforeAdvanceReturns() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    sleepParked(clock, HUNDRED_MS);

    clock.advance(HUNDRED_MS);

    assertThat(clock.sleepers()).isZero();
  }

  @Test
  void sleep_advancedPastDeadline_returnsNormally() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread sleeping = sleepParked(clock, HUNDRED_MS);

    clock.advance(Duration.ofDays(1));

    assertThat(sleeping.awaitFinished()).isTrue();
    assertThat(sleeping.thrown()).isNull();
  }

  @Test
  void sleep_advancedPartway_staysParkedUntilStepsAddUp() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread sleeping = sleepParked(clock, HUNDRED_MS);

    clock.advanceMillis(40);
    clock.advanceMillis(40);
    boolean parkedAfterEighty = clock.sleepers() == 1 && !sleeping.hasFinished();
    clock.advanceMillis(20);

    assertThat(parkedAfterEighty).isTrue();
    assertThat(sleeping.awaitFinished()).isTrue();
  }

  @Test
  void sleep_severalSleepers_wakeInDeadlineOrder() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread third = sleepParked(clock, Duration.ofMillis(300));
    SleepingThread first = sleepParked(clock, Duration.ofMillis(100));
    SleepingThread second = sleepParked(clock, Duration.ofMillis(200));

    clock.advanceMillis(100);
    assertThat(first.awaitFinished()).isTrue();
    assertThat(clock.sleepers()).isEqualTo(2);
    assertThat(second.hasFinished()).isFalse();
    assertThat(third.hasFinished()).isFalse();

    clock.advanceMillis(100);
    assertThat(second.awaitFinished()).isTrue();
    assertThat(clock.sleepers()).isEqualTo(1);
    assertThat(third.hasFinished()).isFalse();

    clock.advanceMillis(100);
    assertThat(third.awaitFinished()).isTrue();
    assertThat(clock.sleepers()).isZero();
  }

  @Test
  void sleep_startedAfterAnAdvance_deadlineCountsFromItsOwnStart() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread early = sleepParked(clock, HUNDRED_MS);
    clock.advanceMillis(50);
    SleepingThread late = sleepParked(clock, HUNDRED_MS);

    clock.advanceMillis(50);
    assertThat(early.awaitFinished()).isTrue();
    assertThat(late.hasFinished()).isFalse();

    clock.advanceMillis(50);
    assertThat(late.awaitFinished()).isTrue();
  }

  @Test
  void sleep_nearLongMaxValue_releasedAfterTheReadingWraps() throws InterruptedException {
    ManualClock clock = ManualClock.parkingAt(Long.MAX_VALUE - 50_000_000L);
    SleepingThread sleeping = sleepParked(clock, HUNDRED_MS);

    clock.advanceMillis(60);
    assertThat(clock.nanoTime()).isNegative();
    assertThat(sleeping.hasFinished()).isFalse();

    clock.advanceMillis(40);
    assertThat(sleeping.awaitFinished()).isTrue();
  }

  @Test
  void sleep_longMaxValueNanos_releasedOnlyWhenAdvancesReachIt() throws InterruptedException {
    ManualClock clock = ManualClock.parkingAt(Long.MIN_VALUE);
    SleepingThread sleeping = SleepingThread.startNanos(clock, Long.MAX_VALUE);
    started.add(sleeping);
    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();

    clock.advanceNanos(Long.MAX_VALUE - 1);
    assertThat(sleeping.hasFinished()).isFalse();

    clock.advanceNanos(1);
    assertThat(sleeping.awaitFinished()).isTrue();
  }

  @Test
  void sleep_zero_returnsAtOnceWithoutParking() throws InterruptedException {
    ManualClock clock = ManualClock.parking();

    SleepingThread sleeping = sleep(clock, Duration.ZERO);

    assertThat(sleeping.awaitFinished()).isTrue();
    assertThat(sleeping.thrown()).isNull();
  }

  @Test
  void sleep_interruptedWhileParked_throwsInterruptedException() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread sleeping = sleepParked(clock, HUNDRED_MS);

    sleeping.interrupt();

    assertThat(sleeping.awaitFinished()).isTrue();
    assertThat(sleeping.thrown()).isInstanceOf(InterruptedException.class);
  }

  @Test
  void sleep_interruptedWhileParked_leavesSleepers() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread sleeping = sleepParked(clock, HUNDRED_MS);

    sleeping.interrupt();
    assertThat(sleeping.awaitFinished()).isTrue();

    assertThat(clock.sleepers()).isZero();
  }

  @Test
  void sleep_oneOfTwoInterrupted_otherStaysParkedUntilItsDeadline() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread interrupted = sleepParked(clock, HUNDRED_MS);
    SleepingThread patient = sleepParked(clock, HUNDRED_MS);

    interrupted.interrupt();
    assertThat(interrupted.awaitFinished()).isTrue();
    assertThat(clock.sleepers()).isEqualTo(1);
    assertThat(patient.hasFinished()).isFalse();

    clock.advance(HUNDRED_MS);
    assertThat(patient.awaitFinished()).isTrue();
    assertThat(patient.thrown()).isNull();
  }

  @Test
  void sleep_interruptedOnEntry_throwsWithoutParking() {
    ManualClock clock = ManualClock.parking();
    Thread.currentThread().interrupt();

    assertThatThrownBy(() -> clock.sleep(HUNDRED_MS.toNanos()))
        .isInstanceOf(InterruptedException.class);
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
    assertThat(clock.sleepers()).isZero();
  }

  @Test
  void advance_manyThreadsWhileOneSleeps_releasesItWhenTheSumReachesItsNap() throws Exception {
    ManualClock clock = ManualClock.parking();
    int threads = 8;
    int stepsEach = 1_000;
    SleepingThread sleeping = SleepingThread.startNanos(clock, (long) threads * stepsEach);
    started.add(sleeping);
    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();

    Together.run(threads, thread -> {
      for (int i = 0; i < stepsEach; i++) {
        clock.advanceNanos(1);
      }
    });

    assertThat(sleeping.awaitFinished()).isTrue();
    assertThat(clock.nanoTime()).isEqualTo((long) threads * stepsEach);
  }

  @Test
  void awaitSleepers_noneParkedAndZeroTimeout_returnsFalse() throws InterruptedException {
    ManualClock clock = ManualClock.parking();

    assertThat(clock.awaitSleepers(1, Duration.ZERO)).isFalse();
  }

  @Test
  void awaitSleepers_zeroCount_returnsTrue() throws InterruptedException {
    ManualClock clock = ManualClock.parking();

    assertThat(clock.awaitSleepers(0, Duration.ZERO)).isTrue();
  }

  @Test
  void toString_parkingClock_showsReadingModeAndSleepers() throws InterruptedException {
    ManualClock clock = ManualClock.parkingAt(-3L);
    sleepParked(clock, HUNDRED_MS);

    assertThat(clock).hasToString("ManualClock[nanoTime=-3, parking, sleepers=1]");
  }
}
