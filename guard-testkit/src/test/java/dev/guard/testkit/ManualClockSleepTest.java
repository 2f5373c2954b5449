package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.testing.Together;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Sleeping on a clock in the default, advancing mode. */
class ManualClockSleepTest {

  @AfterEach
  void clearInterruptStatus() {
    Thread.interrupted(); // never leak a set status into the next test on this thread
  }

  @Test
  void sleep_positive_advancesByThatAmount() throws InterruptedException {
    ManualClock clock = ManualClock.startingAt(1_000L);

    clock.sleep(250L);

    assertThat(clock.nanoTime()).isEqualTo(1_250L);
  }

  @Test
  void sleep_zero_leavesReadingUnchanged() throws InterruptedException {
    ManualClock clock = new ManualClock();

    clock.sleep(0L);

    assertThat(clock.nanoTime()).isZero();
  }

  @Test
  void sleep_negative_leavesReadingUnchanged() throws InterruptedException {
    ManualClock clock = new ManualClock();

    clock.sleep(Long.MIN_VALUE);

    assertThat(clock.nanoTime()).isZero();
  }

  @Test
  void sleep_pastLongMaxValue_wraps() throws InterruptedException {
    ManualClock clock = ManualClock.startingAt(Long.MAX_VALUE);
    long start = clock.nanoTime();

    clock.sleep(10L);

    assertThat(clock.nanoTime() - start).isEqualTo(10L);
  }

  @Test
  void sleep_interruptedOnEntry_throwsInterruptedException() {
    ManualClock clock = new ManualClock();
    Thread.currentThread().interrupt();

    assertThatThrownBy(() -> clock.sleep(1L)).isInstanceOf(InterruptedException.class);
  }

  @Test
  void sleep_interruptedOnEntry_clearsInterruptStatus() {
    ManualClock clock = new ManualClock();
    Thread.currentThread().interrupt();

    assertThatThrownBy(() -> clock.sleep(1L)).isInstanceOf(InterruptedException.class);

    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void sleep_interruptedOnEntry_doesNotAdvance() {
    ManualClock clock = new ManualClock();
    Thread.currentThread().interrupt();

    assertThatThrownBy(() -> clock.sleep(1L)).isInstanceOf(InterruptedException.class);

    assertThat(clock.nanoTime()).isZero();
  }

  @Test
  void sleep_zeroWhileInterrupted_returnsAndKeepsStatus() throws InterruptedException {
    ManualClock clock = new ManualClock();
    Thread.currentThread().interrupt();

    clock.sleep(0L);

    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }

  @Test
  void sleep_manyThreadsAtOnce_advancesByTheSumOfAllSleeps() throws Exception {
    long start = Long.MAX_VALUE - 1_000L;
    ManualClock clock = ManualClock.startingAt(start);
    int threads = 8;
    int sleepsEach = 1_000;

    Together.run(threads, thread -> {
      for (int i = 0; i < sleepsEach; i++) {
        clock.sleep(3L);
      }
    });

    assertThat(clock.nanoTime() - start).isEqualTo(3L * threads * sleepsEach);
  }
}
