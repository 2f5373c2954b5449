package dev.guard.examples;

import dev.guard.api.RefusedException;
import dev.guard.spi.TimeSource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Drives the endpoints with open-loop traffic: one arrival thread per endpoint wakes up every
 * period (through the {@link TimeSource}) and hands each arriving call to a pool of caller
 * threads, so a call that waits (pacing) or works (slow endpoints) never delays the next arrival.
 * Every outcome is recorded in the endpoint's {@link EndpointMeter} with the time it became known.
 *
 * <p>Use it once: {@link #start}, then {@link #finish} after the run's end time.
 */
final class LoadGenerator {

  private static final long DRAIN_SECONDS = 5;

  private final TimeSource time;
  private final ExecutorService arrivals;
  private final ExecutorService callers = Executors.newCachedThreadPool();

  LoadGenerator(TimeSource time, int endpoints) {
    this.time = Objects.requireNonNull(time, "time");
    this.arrivals = Executors.newFixedThreadPool(endpoints);
  }

  /**
   * Starts the arrivals of every endpoint at {@code startNanos}; the last arrival is before
   * {@code endNanos}.
   */
  void start(List<EndpointMeter> meters, long startNanos, long endNanos) {
    for (EndpointMeter meter : meters) {
      Runnable call = guardedCall(meter, startNanos);
      long period = meter.endpoint().period().toNanos();
      int burst = meter.endpoint().burst();
      arrivals.execute(() -> arrive(call, burst, period, startNanos, endNanos));
    }
  }

  /**
   * Waits for the arrivals to end and the calls in flight to complete, then stops every thread.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  void finish() throws InterruptedException {
    arrivals.shutdown();
    boolean arrived = arrivals.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS);
    callers.shutdown();
    boolean called = callers.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS);
    if (!arrived || !called) {
      arrivals.shutdownNow();
      callers.shutdownNow();
    }
  }

  private void arrive(Runnable call, int burst, long periodNanos, long startNanos, long endNanos) {
    for (long due = startNanos; due - endNanos < 0; due += periodNanos) {
      try {
        time.sleep(due - time.nanoTime());
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return;
      }
      for (int i = 0; i < burst; i++) {
        callers.execute(call);
      }
    }
  }

  private Runnable guardedCall(EndpointMeter meter, long startNanos) {
    Endpoint endpoint = meter.endpoint();
    if (!endpoint.callers().isEmpty()) {
      return callOnBehalfOfUsers(meter);
    }
    long workNanos = endpoint.work().toNanos();
    Runnable guarded = endpoint.guard().decorateRunnable(() -> {
      long started = time.nanoTime();
      meter.started(started);
      try {
        work(workNanos);
        if (endpoint.failsAt(time.nanoTime() - startNanos)) {
          throw new DependencyDownException(started);
        }
      } finally {
        meter.finished();
      }
    });
    return () -> {
      try {
        guarded.run();
      } catch (RefusedException refused) {
        meter.refused(time.nanoTime());
      } catch (DependencyDownException down) {
        meter.failed(down.startedNanos);
      }
    };
  }

  /** The simulated dependency failed; the call had started at {@code startedNanos}. */
  static final class DependencyDownException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final long startedNanos;

    DependencyDownException(long startedNanos) {
      super("dependency down", null, false, false);
      this.startedNanos = startedNanos;
    }
  }

  /** Each call is made for the next user in turn, who is the guarded function's argument. */
  private Runnable callOnBehalfOfUsers(EndpointMeter meter) {
    Endpoint endpoint = meter.endpoint();
    long workNanos = endpoint.work().toNanos();
    AtomicLong calls = new AtomicLong();
    Function<String, Boolean> guarded = endpoint.guard().decorateFunction(user -> {
      meter.started(time.nanoTime());
      try {
        work(workNanos);
      } finally {
        meter.finished();
      }
      return Boolean.TRUE;
    });
    return () -> {
      String user = endpoint.caller(calls.getAndIncrement());
      try {
        meter.outcomeOf(user, guarded.apply(user));
      } catch (RefusedException refused) {
        meter.refused(time.nanoTime());
        meter.outcomeOf(user, false);
      }
    };
  }

  private void work(long nanos) {
    try {
      time.sleep(nanos);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
