package dev.guard.engine.internal.host;

import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A cached clock reading refreshed by a ticker thread that runs only while someone reads it.
 *
 * <p>Readers get {@link #read()}: one volatile read of the cached value and one of a demand flag;
 * a reader writes only when it finds the flag clear, so under load readers do not pass a cache
 * line between cores. The ticker refreshes the value every tick and clears the flag every {@code
 * ticksPerCheck} ticks; when a whole check period passed with no reader setting it again, the
 * ticker stops, and the next reader starts a new one (the value it reads first is fresh, because
 * starting refreshes it). An idle process therefore costs nothing after one quiet period.
 *
 * <p>Stopping races with readers that set the flag while the ticker decides; the ticker marks
 * itself stopped first and then looks at the flag once more, so a reader either sees the ticker
 * stopped (and starts one) or its demand is seen by the ticker (which keeps running).
 */
final class AdaptiveTicker {

  private final LongSupplier source;
  private final LongConsumer pause;
  private final Consumer<Runnable> threads;
  private final long tickNanos;
  private final int ticksPerCheck;
  private volatile long cached;
  private volatile boolean demanded;
  private volatile boolean running;
  private int ticks; // touched by the ticker thread only

  /**
   * Creates a stopped ticker.
   *
   * @param source the clock to cache
   * @param pause waits between two ticks, given the tick in nanoseconds (the system time source
   *     parks the ticker's thread)
   * @param threads starts the ticker's loop on a new thread
   * @param tickNanos how often the value is refreshed
   * @param ticksPerCheck how many ticks without a reader stop the ticker
   */
  AdaptiveTicker(
      LongSupplier source, LongConsumer pause, Consumer<Runnable> threads, long tickNanos,
      int ticksPerCheck) {
    this.source = source;
    this.pause = pause;
    this.threads = threads;
    this.tickNanos = tickNanos;
    this.ticksPerCheck = ticksPerCheck;
    this.cached = source.getAsLong();
  }

  /** The cached reading, starting the ticker if it is not running. */
  long read() {
    if (!demanded) {
      demanded = true;
      if (!running) {
        start();
      }
    }
    return cached;
  }

  /** Whether a ticker thread is running (or about to). */
  boolean running() {
    return running;
  }

  private synchronized void start() {
    if (running) {
      return;
    }
    cached = source.getAsLong();
    ticks = 0;
    running = true;
    threads.accept(this::loop);
  }

  private void loop() {
    while (tick()) {
      pause.accept(tickNanos);
    }
  }

  /**
   * Refreshes the value once and decides whether to go on.
   *
   * @return false when the ticker has stopped
   */
  boolean tick() {
    cached = source.getAsLong();
    if (++ticks % ticksPerCheck != 0) {
      return true;
    }
    if (demanded) {
      demanded = false;
      return true;
    }
    synchronized (this) {
      running = false;
      if (demanded) { // a reader came while we decided: it saw us running, so keep going
        running = true;
        demanded = false;
        return true;
      }
      return false;
    }
  }
}
