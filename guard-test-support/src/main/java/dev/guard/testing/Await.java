package dev.guard.testing;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Waits, bounded, for something that happens on another thread or in another process (a
 * background connection, a server's answer, a heartbeat), and names it when it gives up. The
 * one place in the tests that reads the wall clock to wait: a test that reaches the bound has
 * failed, it was not slow.
 *
 * <pre>{@code
 * Await.until("the fleet lists 2 instances", Duration.ofSeconds(10),
 *     () -> fleet.view().instances().size() == 2);
 * }</pre>
 */
public final class Await {

  /** How long a check rests before it looks again. */
  private static final long PAUSE_MILLIS = 10;

  private Await() {}

  /** A condition to check again and again; it may throw, which ends the wait at once. */
  @FunctionalInterface
  public interface Check {
    /**
     * Whether the awaited thing has happened.
     *
     * @return true once it has
     * @throws Exception when the check itself failed (the wait then fails with it)
     */
    boolean holds() throws Exception;
  }

  /**
   * A reading to take again and again; it may throw, which ends the wait at once.
   *
   * @param <T> what is read
   */
  @FunctionalInterface
  public interface Reading<T extends @Nullable Object> {
    /**
     * Reads the current value.
     *
     * @return the value now
     * @throws Exception when reading failed (the wait then fails with it)
     */
    T read() throws Exception;
  }

  /**
   * Checks {@code condition} until it holds, for at most {@code patience}.
   *
   * @param what what is awaited, as the failure says it: "the fleet lists 2 instances"
   * @param patience the longest wait
   * @param condition the check; an {@link AssertionError} or unchecked exception it throws passes
   *     through, a checked one fails the wait naming {@code what}
   * @throws AssertionError when the condition did not hold within {@code patience}
   */
  public static void until(String what, Duration patience, Check condition) {
    Objects.requireNonNull(condition, "condition");
    await(what, patience, condition::holds, Boolean::booleanValue, false);
  }

  /**
   * Reads {@code reading} until {@code done} accepts the value, for at most {@code patience}, and
   * returns that value.
   *
   * @param <T> what is read
   * @param what what is awaited, as the failure says it: "the view lists both instances"
   * @param patience the longest wait
   * @param reading the reading; an {@link AssertionError} or unchecked exception it throws passes
   *     through, a checked one fails the wait naming {@code what}
   * @param done whether a value is the awaited one
   * @return the first value {@code done} accepted
   * @throws AssertionError when no value was accepted within {@code patience}; it shows the last
   *     value read
   */
  public static <T extends @Nullable Object> T value(String what, Duration patience,
      Reading<T> reading, Predicate<? super T> done) {
    return await(what, patience, reading, done, true);
  }

  private static <T extends @Nullable Object> T await(String what, Duration patience,
      Reading<T> reading, Predicate<? super T> done, boolean showLast) {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(reading, "reading");
    Objects.requireNonNull(done, "done");
    if (patience.isNegative() || patience.isZero()) {
      throw new IllegalArgumentException("patience must be > 0, was " + patience);
    }
    long start = System.nanoTime();
    T last;
    while (true) {
      last = read(what, reading);
      if (done.test(last)) {
        return last;
      }
      if (System.nanoTime() - start >= patience.toNanos()) {
        throw new AssertionError("waited " + patience.toMillis() + " ms for " + what
            + "; it did not happen" + (showLast ? " (last reading: " + last + ")" : ""));
      }
      pause(what);
    }
  }

  private static <T extends @Nullable Object> T read(String what, Reading<T> reading) {
    try {
      return reading.read();
    } catch (RuntimeException | Error passThrough) {
      throw passThrough;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for " + what, interrupted);
    } catch (Exception failed) {
      throw new AssertionError("the check failed while waiting for " + what + ": " + failed,
          failed);
    }
  }

  private static void pause(String what) {
    try {
      TimeUnit.MILLISECONDS.sleep(PAUSE_MILLIS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for " + what, interrupted);
    }
  }
}
