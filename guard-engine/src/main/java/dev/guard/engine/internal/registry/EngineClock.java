package dev.guard.engine.internal.registry;

import dev.guard.spi.TimeSource;
import java.time.Instant;

/**
 * The engine's time: its time source read relative to the moment the engine was built, so engine
 * time starts at 0 and never goes below it. Calls read the coarse clock once, when they are
 * entered; slots that wait read the precise one, and so does everything off the call path (the
 * metrics recorder, readers of statistics): a coarse read keeps the coarse clock's ticker awake
 * for another second, so background work that read it once a second would never let it stop.
 */
public final class EngineClock {

  private final TimeSource source;
  private final long originNanos;

  /**
   * Starts engine time now.
   *
   * @param source the engine's time source
   */
  public EngineClock(TimeSource source) {
    this.source = source;
    this.originNanos = source.coarseNanoTime();
  }

  /** The time source the engine was built with. */
  public TimeSource source() {
    return source;
  }

  /** Engine time in nanoseconds from the coarse clock (what decides calls). */
  public long nowNanos() {
    long now = source.coarseNanoTime() - originNanos;
    return now < 0 ? 0 : now;
  }

  /** Engine time in milliseconds from the coarse clock. */
  public long nowMs() {
    return nowNanos() / 1_000_000L;
  }

  /** Engine time in milliseconds from the precise clock (work off the call path). */
  public long preciseNowMs() {
    return preciseNowNanos() / 1_000_000L;
  }

  /** Engine time in nanoseconds from the precise clock (waits, snapshots). */
  public long preciseNowNanos() {
    long now = source.nanoTime() - originNanos;
    return now < 0 ? 0 : now;
  }

  /** The time source's wall time (rule history). */
  public Instant wallTime() {
    return source.wallTime();
  }

  /**
   * Waits through the time source.
   *
   * @param nanos how long
   * @throws InterruptedException if the wait is interrupted
   */
  public void sleep(long nanos) throws InterruptedException {
    source.sleep(nanos);
  }
}
