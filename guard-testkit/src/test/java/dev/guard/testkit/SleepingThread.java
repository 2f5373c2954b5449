package dev.guard.testkit;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A daemon thread that sleeps once on a clock ({@link ManualClock#sleep}, or {@link
 * ManualClock#backgroundSleep} when started in the background) and records how the sleep ended.
 */
final class SleepingThread {

  /** Bounds every real wait in the tests; reaching it means a test failed, not that it was slow. */
  static final Duration PATIENCE = Duration.ofSeconds(10);

  private final Thread thread;
  private final CountDownLatch finished = new CountDownLatch(1);
  private final AtomicReference<Throwable> thrown = new AtomicReference<>();

  private final boolean background;

  private SleepingThread(ManualClock clock, long nanos, String name, boolean background) {
    this.background = background;
    this.thread = new Thread(() -> run(clock, nanos), name);
    this.thread.setDaemon(true);
  }

  static SleepingThread start(ManualClock clock, Duration nap) {
    SleepingThread sleeping = new SleepingThread(clock, nap.toNanos(), "sleeper-" + nap, false);
    sleeping.thread.start();
    return sleeping;
  }

  static SleepingThread startInBackground(ManualClock clock, Duration nap) {
    SleepingThread sleeping =
        new SleepingThread(clock, nap.toNanos(), "background-sleeper-" + nap, true);
    sleeping.thread.start();
    return sleeping;
  }

  static SleepingThread startNanos(ManualClock clock, long nanos) {
    SleepingThread sleeping = new SleepingThread(clock, nanos, "sleeper-" + nanos + "ns", false);
    sleeping.thread.start();
    return sleeping;
  }

  private void run(ManualClock clock, long nanos) {
    try {
      if (background) {
        clock.backgroundSleep(nanos);
      } else {
        clock.sleep(nanos);
      }
    } catch (Throwable t) {
      thrown.set(t);
    } finally {
      finished.countDown();
    }
  }

  /** Waits, bounded by {@link #PATIENCE}, until the sleep has ended either way. */
  boolean awaitFinished() throws InterruptedException {
    return finished.await(PATIENCE.toNanos(), TimeUnit.NANOSECONDS);
  }

  boolean hasFinished() {
    return finished.getCount() == 0;
  }

  /** What the sleep threw, or {@code null} if it returned normally or is still running. */
  Throwable thrown() {
    return thrown.get();
  }

  void interrupt() {
    thread.interrupt();
  }

  /** Ends a sleep that a failing test left parked, so no thread outlives its test. */
  void stop() throws InterruptedException {
    thread.interrupt();
    thread.join(PATIENCE.toMillis());
  }
}
