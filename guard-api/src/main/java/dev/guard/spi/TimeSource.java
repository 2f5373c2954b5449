package dev.guard.spi;

import java.time.Instant;

/**
 * The one source of time and waiting for an engine: monotonic nanoseconds and sleeping.
 *
 * <p>Every time read and every wait in guard goes through the {@code TimeSource} given to the
 * engine, so tests can substitute a manual clock and observe time-dependent behaviour without
 * real waiting. Readings are only meaningful relative to each other: compare them by subtraction
 * ({@code now - start >= d}), never by absolute value, so overflow of the counter is harmless.
 *
 * <pre>{@code
 * TimeSource time = GuardEngine.systemTime();
 * long start = time.nanoTime();
 * time.sleep(1_000_000);                 // one millisecond
 * long elapsed = time.nanoTime() - start;
 * }</pre>
 *
 * <p>Implementations must be thread-safe.
 */
public interface TimeSource {

  /**
   * Returns the current reading of a monotonic clock in nanoseconds. The origin is arbitrary and
   * may be negative; only differences between readings are meaningful.
   *
   * @return the current reading in nanoseconds
   */
  long nanoTime();

  /**
   * Returns a reading of the same clock as {@link #nanoTime()} that may lag behind it by up to
   * about a millisecond, in exchange for being cheaper to take. Engines use it for statistics and
   * decisions that work at millisecond precision (sliding windows, response times) and use {@link
   * #nanoTime()} where nanoseconds matter (pacing). The default returns {@link #nanoTime()}, so a
   * manual clock stays exact.
   *
   * @return the current reading in nanoseconds, possibly up to about a millisecond old
   */
  default long coarseNanoTime() {
    return nanoTime();
  }

  /**
   * Returns the current reading in whole milliseconds, derived from {@link #nanoTime()} by
   * rounding toward negative infinity.
   *
   * @return the current reading in milliseconds
   */
  default long millis() {
    return Math.floorDiv(nanoTime(), 1_000_000L);
  }

  /**
   * Returns the wall-clock time, for records people read (when a rule set was applied), never for
   * decisions. The default, for time sources that know no calendar (such as a manual clock), is
   * {@link #nanoTime()} counted from the epoch, so records stay reproducible; the system source
   * returns the system's UTC time.
   *
   * @return the current wall-clock time
   */
  default Instant wallTime() {
    return Instant.EPOCH.plusNanos(nanoTime());
  }

  /**
   * Waits for the given number of nanoseconds as this time source measures them. A value of zero
   * or less returns at once.
   *
   * @param nanos how long to wait, in nanoseconds
   * @throws InterruptedException if the waiting thread is interrupted
   */
  void sleep(long nanos) throws InterruptedException;

  /**
   * Waits, on a thread that works in the background (a rule source's poller, a sampler), until
   * this time source has moved on by the given number of nanoseconds, without ever moving it
   * itself. A value of zero or less returns at once.
   *
   * <p>{@link #sleep(long)} is the wait of a call being decided, and a manual clock may serve it
   * by moving its own time forward, so that a single-threaded test paces instantly. A background
   * loop must not do that: it would push a test's clock forward on its own, one poll interval
   * after another. This method is the wait for such loops: the default calls {@link
   * #sleep(long)}, which is the same thing for a source whose time passes by itself (the system
   * source); a manual clock parks the thread until the test has advanced the clock far enough.
   *
   * <pre>{@code
   * while (running) {
   *   time.backgroundSleep(pollNanos);   // a manual clock: until the test advances it by pollNanos
   *   lookAtTheStore();
   * }
   * }</pre>
   *
   * @param nanos how long to wait, in nanoseconds of this time source
   * @throws InterruptedException if the waiting thread is interrupted
   */
  default void backgroundSleep(long nanos) throws InterruptedException {
    sleep(nanos);
  }
}
