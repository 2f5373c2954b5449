package dev.guard.testkit;

import static dev.guard.testkit.SleepingThread.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A background sleep (a rule source's poller, a sampler) parks until the test advances the clock,
 * in both modes, and never moves the clock itself.
 */
class ManualClockBackgroundSleepTest {

  private static final Duration POLL = Duration.ofSeconds(5);

  private final List<SleepingThread> started = new ArrayList<>();

  @AfterEach
  void stopLeftoverSleepers() throws InterruptedException {
    for (SleepingThread sleeping : started) {
      sleeping.stop();
    }
  }

  private SleepingThread parkInBackground(ManualClock clock) throws InterruptedException {
    int before = clock.sleepers();
    SleepingThread sleeping = SleepingThread.startInBackground(clock, POLL);
    started.add(sleeping);
    assertThat(clock.awaitSleepers(before + 1, PATIENCE)).as("background sleeper parked").isTrue();
    return sleeping;
  }

  @Test
  void backgroundSleep_advancingClock_parksWithoutMovingTheClock() throws InterruptedException {
    ManualClock clock = new ManualClock();

    SleepingThread poller = parkInBackground(clock);

    assertThat(clock.nanoTime()).isZero();
    assertThat(poller.hasFinished()).isFalse();
    assertThat(clock).hasToString("ManualClock[nanoTime=0, sleepers=1]");
  }

  @Test
  void backgroundSleep_advancingClock_endsWhenTheTestAdvancesFarEnough()
      throws InterruptedException {
    ManualClock clock = new ManualClock();
    SleepingThread poller = parkInBackground(clock);

    clock.advance(POLL.minusNanos(1));
    assertThat(poller.hasFinished()).isFalse();
    clock.advanceNanos(1);

    assertThat(poller.awaitFinished()).isTrue();
    assertThat(poller.thrown()).isNull();
    assertThat(clock.sleepers()).isZero();
    assertThat(clock.nanoTime()).isEqualTo(POLL.toNanos());
  }

  @Test
  void backgroundSleep_advancingClock_endsWhenACallsSleepMovesTheClock()
      throws InterruptedException {
    ManualClock clock = new ManualClock();
    SleepingThread poller = parkInBackground(clock);

    clock.sleep(POLL.toNanos()); // a paced call on the test's thread: time passes

    assertThat(poller.awaitFinished()).isTrue();
    assertThat(clock.nanoTime()).isEqualTo(POLL.toNanos());
  }

  @Test
  void backgroundSleep_parkingClock_parksUntilAdvanced() throws InterruptedException {
    ManualClock clock = ManualClock.parking();
    SleepingThread poller = parkInBackground(clock);

    clock.advance(POLL);

    assertThat(poller.awaitFinished()).isTrue();
    assertThat(poller.thrown()).isNull();
  }

  @Test
  void backgroundSleep_interrupted_throwsAndStopsCounting() throws InterruptedException {
    ManualClock clock = new ManualClock();
    SleepingThread poller = parkInBackground(clock);

    poller.interrupt();

    assertThat(poller.awaitFinished()).isTrue();
    assertThat(poller.thrown()).isInstanceOf(InterruptedException.class);
    assertThat(clock.sleepers()).isZero();
    assertThat(clock.nanoTime()).isZero();
  }

  @Test
  void backgroundSleep_nothingToWait_returnsAtOnce() throws InterruptedException {
    ManualClock clock = new ManualClock();

    clock.backgroundSleep(0);
    clock.backgroundSleep(-1);

    assertThat(clock.nanoTime()).isZero();
    assertThat(clock.sleepers()).isZero();
  }
}
