package dev.guard.engine.internal.host;

import dev.guard.spi.TimeSource;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A time source whose sleepers block until the test lets them go; time then moves by what they
 * slept. Lets a test step a background thread one wait at a time.
 */
final class SteppedTime implements TimeSource {

  private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
  private final BlockingQueue<Long> sleepers = new LinkedBlockingQueue<>();
  private final Semaphore wake = new Semaphore(0);

  @Override
  public long nanoTime() {
    return now.get();
  }

  @Override
  public void sleep(long nanos) throws InterruptedException {
    sleepers.add(nanos);
    wake.acquire();
    now.addAndGet(nanos);
  }

  /** Waits (bounded) until a thread sleeps; returns how long it sleeps. */
  long awaitSleeper() throws InterruptedException {
    Long nanos = sleepers.poll(10, TimeUnit.SECONDS);
    if (nanos == null) {
      throw new AssertionError("no thread went to sleep within 10 s");
    }
    return nanos;
  }

  /** Lets one sleeper go on. */
  void wakeOne() {
    wake.release();
  }

  void advance(long nanos) {
    now.addAndGet(nanos);
  }
}
