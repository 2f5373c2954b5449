package dev.guard.engine.internal.host;

import dev.guard.api.internal.Threads;
import dev.guard.spi.TimeSource;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * The time source backed by the JVM clock. This is the only class in guard that reads the system
 * clock or waits on it (its coarse clock's ticker parks through it too), as a build test
 * (ClockDisciplineTest) checks.
 *
 * <p>Sleeping parks the thread until the deadline (to the nanosecond, unlike {@code
 * Thread.sleep}, which rounds to milliseconds) and throws {@link InterruptedException} when the
 * thread is interrupted, clearing the flag.
 *
 * <p>Coarse readings come from a cached value that one daemon thread refreshes every {@value
 * #TICK_NANOS} ns; reading a volatile field costs about a nanosecond where a clock read costs
 * tens. The ticker starts on the first coarse read and stops after a second without one, so an
 * idle process spends no CPU on it ({@link AdaptiveTicker}). Should it ever fall behind (a stalled
 * thread), a coarse reading is still never older than the last refresh, and correctness never
 * depends on it: precise reads bypass the cache.
 */
public final class SystemTimeSource implements TimeSource {

  public static final SystemTimeSource INSTANCE = new SystemTimeSource();

  private static final long TICK_NANOS = 1_000_000L;

  private final AdaptiveTicker ticker =
      new AdaptiveTicker(System::nanoTime, LockSupport::parkNanos, SystemTimeSource::daemon,
          TICK_NANOS, 1000);

  private SystemTimeSource() {}

  private static void daemon(Runnable loop) {
    Threads.start(Threads.shared(), "guard-clock-ticker", loop);
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public long coarseNanoTime() {
    return ticker.read();
  }

  @Override
  public Instant wallTime() {
    return Instant.now();
  }

  @Override
  public void sleep(long nanos) throws InterruptedException {
    if (nanos <= 0) {
      return;
    }
    long deadline = System.nanoTime() + nanos;
    while (true) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while waiting through the time source");
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      LockSupport.parkNanos(this, left);
    }
  }

  @Override
  public String toString() {
    return "GuardEngine.systemTime()";
  }
}
