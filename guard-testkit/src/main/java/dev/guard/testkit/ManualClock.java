package dev.guard.testkit;

import dev.guard.spi.RulePart;
import dev.guard.spi.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TimeSource} that moves only when told to, so that time-dependent behaviour can be
 * tested without real waiting and with reproducible results.
 *
 * <p>The reading is a nanosecond counter that starts at 0, or at any value given to {@link
 * #startingAt(long)}, and changes only through the {@code advance…} methods and, in the default
 * mode, through {@link #sleep(long)}. It never goes backwards: advancing by a negative amount is
 * rejected. Arithmetic is plain two's-complement, so a clock started near {@link Long#MAX_VALUE}
 * wraps to negative readings when advanced past it, exactly as {@code System.nanoTime()} may; code
 * that compares readings by subtraction, as {@link TimeSource} requires, is unaffected.
 *
 * <p>A clock serves {@link #sleep(long)}, the wait of a call being decided (pacing, a borrowed
 * pass), in one of two modes, chosen when it is created:
 *
 * <ul>
 *   <li><b>Advancing</b> ({@link #ManualClock()}, {@link #startingAt(long)}): {@link #sleep(long)}
 *       advances the clock by the requested amount and returns at once. Single-threaded tests of
 *       pacing or retry back-off run instantly and still see the time pass.
 *   <li><b>Parking</b> ({@link #parking()}, {@link #parkingAt(long)}): {@link #sleep(long)} parks
 *       the calling thread until other code has advanced the clock by at least the requested
 *       amount; it never moves the clock itself. This suits multi-threaded simulations in which a
 *       test thread drives time while worker threads wait on it. {@link #sleepers()} and {@link
 *       #awaitSleepers(int, Duration)} let the test see when the workers are parked.
 * </ul>
 *
 * <p>In both modes, {@link #backgroundSleep(long)}, the wait of a background loop (a polling rule
 * source, a sampler), parks the calling thread until the test has advanced the clock by the
 * requested amount, and never moves the clock itself. So a rule source attached to an engine on
 * {@code new ManualClock()} looks at its store again when the test has advanced the clock by its
 * poll interval, and does not push the test's time forward on its own. Background sleepers count
 * in {@link #sleepers()} in both modes.
 *
 * <p>Single-threaded use, in the advancing mode:
 *
 * <pre>{@code
 * ManualClock clock = ManualClock.startingAt(Long.MAX_VALUE - 1_000);
 * long start = clock.nanoTime();
 * clock.advance(Duration.ofMillis(5));       // wraps past Long.MAX_VALUE
 * clock.sleep(2_000_000);                    // returns at once, the clock moved by 2 ms
 * assert clock.nanoTime() - start == 7_000_000;
 * }</pre>
 *
 * <p>Multi-threaded use, in the parking mode:
 *
 * <pre>{@code
 * ManualClock clock = ManualClock.parking();
 * Thread worker = new Thread(() -> {
 *   try {
 *     clock.sleep(Duration.ofMillis(100).toNanos());
 *   } catch (InterruptedException e) {
 *     Thread.currentThread().interrupt();
 *   }
 * });
 * worker.start();
 * assert clock.awaitSleepers(1, Duration.ofSeconds(5));   // the worker is parked
 * clock.advanceMillis(60);                                 // still parked
 * clock.advanceMillis(40);                                 // released: sleepers() is now 0
 * worker.join();
 * }</pre>
 *
 * <p>All methods are thread-safe. Reading the clock never blocks, and advancing it is atomic: a
 * reading taken by any thread reflects every advance that completed before it.
 */
public final class ManualClock implements TimeSource {

  private final AtomicLong reading;

  /** The threads parked on this clock: every sleeper in the parking mode, background ones in both. */
  private final ParkedSleepers parked = new ParkedSleepers();

  /** Whether {@link #sleep(long)} parks (the parking mode) rather than advancing the clock. */
  private final boolean parking;

  /**
   * Creates a clock in the advancing mode whose reading starts at 0.
   *
   * <pre>{@code
   * ManualClock clock = new ManualClock();
   * clock.sleep(1_000);      // returns at once
   * clock.nanoTime();        // 1000
   * }</pre>
   */
  public ManualClock() {
    this(0L, false);
  }

  private ManualClock(long startNanos, boolean parking) {
    this.reading = new AtomicLong(startNanos);
    this.parking = parking;
  }

  /**
   * Creates a clock in the advancing mode whose reading starts at the given value. Any value is
   * allowed, including negative ones and values close to {@link Long#MAX_VALUE}, which let a test
   * check that code under test survives the counter wrapping.
   *
   * <pre>{@code
   * ManualClock clock = ManualClock.startingAt(Long.MAX_VALUE);
   * clock.advanceNanos(1);
   * clock.nanoTime();        // Long.MIN_VALUE
   * }</pre>
   *
   * @param nanos the first reading, in nanoseconds
   * @return a new clock in the advancing mode
   */
  public static ManualClock startingAt(long nanos) {
    return new ManualClock(nanos, false);
  }

  /**
   * Creates a clock in the parking mode whose reading starts at 0: a {@link #sleep(long)} parks the
   * calling thread until other code advances the clock far enough.
   *
   * <pre>{@code
   * ManualClock clock = ManualClock.parking();
   * // start threads that call clock.sleep(..), then:
   * clock.awaitSleepers(2, Duration.ofSeconds(5));
   * clock.advance(Duration.ofSeconds(1));
   * }</pre>
   *
   * @return a new clock in the parking mode
   */
  public static ManualClock parking() {
    return parkingAt(0L);
  }

  /**
   * Creates a clock in the parking mode whose reading starts at the given value. Any value is
   * allowed, as for {@link #startingAt(long)}.
   *
   * <pre>{@code
   * ManualClock clock = ManualClock.parkingAt(-5_000_000_000L);
   * }</pre>
   *
   * @param nanos the first reading, in nanoseconds
   * @return a new clock in the parking mode
   */
  public static ManualClock parkingAt(long nanos) {
    return new ManualClock(nanos, true);
  }

  /**
   * Returns the current reading in nanoseconds. It changes only when the clock is advanced.
   *
   * @return the current reading in nanoseconds
   */
  @Override
  public long nanoTime() {
    return reading.get();
  }

  /**
   * Moves the clock forward by the given duration, releasing any parked sleeper whose wait it
   * completes.
   *
   * <pre>{@code
   * clock.advance(Duration.ofSeconds(1));
   * }</pre>
   *
   * @param duration how far to move, not negative and at most {@link Long#MAX_VALUE} nanoseconds
   *     (about 292 years)
   * @throws NullPointerException if {@code duration} is {@code null}
   * @throws IllegalArgumentException if {@code duration} is negative or too large
   */
  public void advance(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw invalid("duration", duration, "must not be negative");
    }
    long nanos;
    try {
      nanos = duration.toNanos();
    } catch (ArithmeticException tooLarge) {
      throw invalid("duration", duration, "must fit in a long of nanoseconds");
    }
    moveBy(nanos);
  }

  /**
   * Moves the clock forward by the given number of milliseconds, releasing any parked sleeper whose
   * wait it completes.
   *
   * @param millis how far to move, in milliseconds; not negative and at most {@link
   *     Long#MAX_VALUE} nanoseconds
   * @throws IllegalArgumentException if {@code millis} is negative or too large
   */
  public void advanceMillis(long millis) {
    if (millis < 0) {
      throw invalid("millis", millis, "must not be negative");
    }
    if (millis > Long.MAX_VALUE / 1_000_000L) {
      throw invalid("millis", millis, "must fit in a long of nanoseconds");
    }
    moveBy(millis * 1_000_000L);
  }

  /**
   * Moves the clock forward by the given number of nanoseconds, releasing any parked sleeper whose
   * wait it completes.
   *
   * @param nanos how far to move, in nanoseconds; not negative
   * @throws IllegalArgumentException if {@code nanos} is negative
   */
  public void advanceNanos(long nanos) {
    if (nanos < 0) {
      throw invalid("nanos", nanos, "must not be negative");
    }
    moveBy(nanos);
  }

  /**
   * Waits for the given number of nanoseconds of this clock's time. A value of zero or less
   * returns at once, without looking at the thread's interrupt status, as the system time source
   * does. For a positive value, a thread whose interrupt status is set on entry gets an {@link
   * InterruptedException} and its status is cleared, as with {@link Thread#sleep(long)}.
   *
   * <p>In the advancing mode the clock moves forward by {@code nanos}, releasing any parked
   * background sleeper whose wait that completes, and the call returns at once. In the parking
   * mode the calling thread parks until other code has advanced the clock by
   * at least {@code nanos} since this call began, that is, to or past the deadline formed by adding
   * {@code nanos} to the reading at the start; the sleep itself never moves the clock. The thread
   * counts in {@link #sleepers()} from the moment it parks until it is interrupted or an advance
   * releases it; in the latter case the count has already dropped when that advance returns, even
   * if the released thread has not run yet. If the interrupt and the release race, the sleep
   * completes normally and the thread's interrupt status is left set.
   *
   * @param nanos how long to wait, in nanoseconds of this clock
   * @throws InterruptedException if the thread is interrupted on entry or, in the parking mode,
   *     while parked
   */
  @Override
  public void sleep(long nanos) throws InterruptedException {
    if (nanos <= 0) {
      return;
    }
    if (parking) {
      parked.park(nanos);
      return;
    }
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before sleeping on " + this);
    }
    parked.advance(reading, nanos);
  }

  /**
   * Waits, in either mode, until other code has advanced the clock by at least {@code nanos} since
   * this call began, exactly as {@link #sleep(long)} does in the parking mode (same interrupt rules,
   * counted in {@link #sleepers()} while parked); it never moves the clock. Background loops
   * (polling rule sources, samplers) wait here, so they follow the test's time without pushing it.
   *
   * <pre>{@code
   * ManualClock clock = new ManualClock();
   * engine.attach(RuleSources.file(file, Duration.ofSeconds(5)));   // its poller parks
   * clock.awaitSleepers(1, Duration.ofSeconds(5));
   * clock.advance(Duration.ofSeconds(5));                             // it looks at the file again
   * }</pre>
   *
   * @param nanos how long to wait, in nanoseconds of this clock
   * @throws InterruptedException if the thread is interrupted on entry or while parked
   */
  @Override
  public void backgroundSleep(long nanos) throws InterruptedException {
    if (nanos > 0) {
      parked.park(nanos);
    }
  }

  /**
   * Returns how many threads are parked on this clock right now: in {@link #sleep(long)} (the
   * parking mode only) or in {@link #backgroundSleep(long)} (either mode).
   *
   * @return the number of parked sleepers
   */
  public int sleepers() {
    return parked.count();
  }

  /**
   * Waits, up to a real-time timeout, until at least {@code count} threads are parked on this clock
   * (see {@link #sleepers()}). A test uses it to know that its worker threads, or a rule source's
   * poller, have reached their sleep before it advances the clock. The timeout is measured by the JVM's clock, not this one, and only
   * bounds the wait; a test should treat {@code false} as a failure rather than as information
   * about timing.
   *
   * <pre>{@code
   * assertThat(clock.awaitSleepers(3, Duration.ofSeconds(5))).isTrue();
   * }</pre>
   *
   * @param count the number of parked threads to wait for; not negative
   * @param timeout the longest real time to wait; not negative, and zero checks without waiting
   * @return {@code true} once at least {@code count} threads are parked, {@code false} if the
   *     timeout elapsed first
   * @throws NullPointerException if {@code timeout} is {@code null}
   * @throws IllegalArgumentException if {@code count} or {@code timeout} is negative
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public boolean awaitSleepers(int count, Duration timeout) throws InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    if (count < 0) {
      throw invalid("count", count, "must not be negative");
    }
    if (timeout.isNegative()) {
      throw invalid("timeout", timeout, "must not be negative");
    }
    return parked.awaitAtLeast(count, TimeUnit.NANOSECONDS.convert(timeout));
  }

  /**
   * Tells whether this clock is in the parking mode, where a sleep waits for others to advance it
   * (tools that sleep on the calling thread, such as the traffic simulator, need the advancing
   * mode).
   *
   * <pre>{@code
   * assert ManualClock.parking().parks() && !new ManualClock().parks();
   * }</pre>
   *
   * @return true for a clock from {@link #parking()} or {@link #parkingAt(long)}
   */
  public boolean parks() {
    return parking;
  }

  /**
   * Returns a description showing the current reading, the mode and the number of parked sleepers
   * (in the advancing mode only when some are parked), for example {@code
   * ManualClock[nanoTime=1000, parking, sleepers=2]}.
   *
   * @return a description of this clock
   */
  @Override
  public String toString() {
    String head = "ManualClock[nanoTime=" + reading.get();
    int sleepers = parked.count();
    if (parking) {
      return head + ", parking, sleepers=" + sleepers + "]";
    }
    return sleepers == 0 ? head + "]" : head + ", sleepers=" + sleepers + "]";
  }

  private void moveBy(long nanos) {
    parked.advance(reading, nanos);
  }

  private static IllegalArgumentException invalid(String parameter, Object value, String must) {
    return new IllegalArgumentException(parameter + " " + must + ", was " + value);
  }
}
