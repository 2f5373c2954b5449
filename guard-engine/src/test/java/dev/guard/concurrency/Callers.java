package dev.guard.concurrency;

import dev.guard.api.RefusedException;
import dev.guard.api.Entry;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Engine calls made on their own daemon threads. Each call enters, exits at once and reports how
 * it ended, with the clock reading at the moment {@code enter} returned or threw. Every real wait
 * is bounded by {@link #PATIENCE}; reaching it means the test failed, not that it was slow.
 */
final class Callers implements AutoCloseable {

  static final Duration PATIENCE = Duration.ofSeconds(10);

  /** How one call ended. */
  record Outcome(boolean admitted, long returnedAtNanos, boolean interrupted,
      RefusedException refusal) {}

  /** One call in flight. */
  static final class Call {
    final Thread thread;
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

    private Call(Runnable body) {
      thread = new Thread(body);
      thread.setDaemon(true);
    }

    /** The outcome, waiting at most {@link #PATIENCE}. */
    Outcome await() throws InterruptedException, ExecutionException, TimeoutException {
      return outcome.get(PATIENCE.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  private final ManualClock clock;
  private final List<Call> calls = new ArrayList<>();
  private final BlockingQueue<Outcome> finished = new LinkedBlockingQueue<>();

  Callers(ManualClock clock) {
    this.clock = clock;
  }

  /** Starts one call now. */
  Call start(Supplier<Entry> enter) {
    return start(new CountDownLatch(0), enter);
  }

  /** Starts n calls that all enter together, once every thread is running. */
  List<Call> startTogether(int n, Supplier<Entry> enter) {
    CountDownLatch gate = new CountDownLatch(1);
    List<Call> started = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      started.add(start(gate, enter));
    }
    gate.countDown();
    return started;
  }

  private Call start(CountDownLatch gate, Supplier<Entry> enter) {
    Call[] self = new Call[1];
    self[0] = new Call(() -> run(self[0], gate, enter));
    calls.add(self[0]);
    self[0].thread.start();
    return self[0];
  }

  private void run(Call call, CountDownLatch gate, Supplier<Entry> enter) {
    Outcome outcome;
    try {
      gate.await();
      Entry entry = enter.get();
      long at = clock.nanoTime();
      entry.close();
      outcome = new Outcome(true, at, Thread.currentThread().isInterrupted(), null);
    } catch (RefusedException refused) {
      outcome =
          new Outcome(false, clock.nanoTime(), Thread.currentThread().isInterrupted(), refused);
    } catch (Throwable unexpected) {
      call.outcome.completeExceptionally(unexpected);
      return;
    }
    finished.add(outcome);
    call.outcome.complete(outcome);
  }

  /** The next call to finish, in finishing order; fails after {@link #PATIENCE}. */
  Outcome nextFinished() throws InterruptedException {
    Outcome next = finished.poll(PATIENCE.toNanos(), TimeUnit.NANOSECONDS);
    if (next == null) {
      throw new AssertionError("no call finished within " + PATIENCE + " on " + clock);
    }
    return next;
  }

  /** Whether a finished call has not been taken by {@link #nextFinished} yet. */
  boolean anyFinishedUntaken() {
    return !finished.isEmpty();
  }

  /** Interrupts calls a failing test left parked and waits, bounded, for their threads. */
  @Override
  public void close() throws InterruptedException {
    for (Call call : calls) {
      call.thread.interrupt();
    }
    for (Call call : calls) {
      call.thread.join(PATIENCE.toMillis());
    }
  }
}
