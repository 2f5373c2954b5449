package dev.guard.architecture;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.Selector;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.util.Calendar;
import java.util.Date;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * One of every way to read real time or wait on it that {@link ClockDisciplineTest} bans, so that
 * the test can show that its scan catches each of them. Never run.
 */
@SuppressWarnings({"unused", "ResultOfMethodCallIgnored", "WaitNotInLoop"})
final class RealTimeCalls {

  private RealTimeCalls() {}

  static void readTheClock() {
    System.nanoTime();
    LongSupplier millis = System::currentTimeMillis;
    Instant.now();
    LocalDateTime.now();
    Clock.systemUTC();
    InstantSource.system();
    new Date();
    Calendar.getInstance();
    ManagementFactory.getRuntimeMXBean().getUptime();
  }

  static void waitOnTheClock(Object monitor, Condition condition, BlockingQueue<String> queue,
      CompletableFuture<String> future, CountDownLatch latch, Thread thread, Selector selector)
      throws Exception {
    Thread.sleep(1);
    TimeUnit.MILLISECONDS.sleep(1);
    LockSupport.parkNanos(1);
    LockSupport.parkUntil(1);
    monitor.wait(1);
    thread.join(1);
    condition.await(1, TimeUnit.MILLISECONDS);
    condition.awaitNanos(1);
    queue.poll(1, TimeUnit.MILLISECONDS);
    queue.offer("x", 1, TimeUnit.MILLISECONDS);
    future.get(1, TimeUnit.MILLISECONDS);
    latch.await(1, TimeUnit.MILLISECONDS);
    selector.select(1);
  }

  static void scheduleOnTheClock(TimerTask task, ScheduledThreadPoolExecutor pool)
      throws IOException {
    Executors.newSingleThreadScheduledExecutor();
    new Timer();
  }
}
