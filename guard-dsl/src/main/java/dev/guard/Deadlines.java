package dev.guard;

import dev.guard.api.internal.Threads;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TimeSource;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The deadlines of timed asynchronous calls ({@link Guard#timeout}), kept by one daemon thread
 * for every engine: calls add a deadline (a lock-free queue), the thread moves them into one
 * queue per time source, ordered by due time, and runs each deadline's expiry once its time
 * source reads its due time. A call that ends in time cancels its deadline, which lets go of
 * the expiry at once; the queued shell is dropped when it comes due, or sooner once cancelled
 * shells make up half of what is queued.
 *
 * <p>How the thread waits: with no deadline pending it parks until one is added. When every
 * pending deadline is read against the system's time source, it parks until the earliest is due,
 * and an added deadline wakes it only if it is due sooner. A deadline on any other time source (a
 * {@code ManualClock}, which the test moves) cannot be waited for, so while one is pending the
 * thread looks every millisecond of real time: on a {@code ManualClock} a deadline expires within
 * about a millisecond of real time after the test advanced the clock past it. Expiries run on this
 * thread and must be short.
 */
final class Deadlines {

  static final Deadlines SHARED = new Deadlines(GuardEngine.systemTime());

  /** How often the thread looks while a deadline on a time source other than the system's waits. */
  static final long LOOK_NANOS = 1_000_000L;

  /** {@link #plan}: nothing is pending; park until a deadline is added. */
  static final long UNTIL_ADDED = -1L;

  /** Cancelled shells tolerated in the queues before they are swept out, if half of them. */
  private static final int SWEEP_FROM = 1024;

  private static final int IDLE = 0;
  private static final int POLLING = 1;
  private static final int TIMED = 2;

  private static final VarHandle EXPIRY;

  static {
    try {
      EXPIRY = MethodHandles.lookup().findVarHandle(Deadline.class, "expiry", Runnable.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final TimeSource system;
  private final ConcurrentLinkedQueue<Deadline> added = new ConcurrentLinkedQueue<>();
  private final Map<TimeSource, PriorityQueue<Deadline>> pending = new IdentityHashMap<>();
  private final AtomicLong cancelledShells = new AtomicLong();
  private volatile @Nullable Thread thread;
  private volatile int mode = IDLE;
  private volatile long wakeAtNanos;

  /** One deadline: its time source, when it is due, and what happens then unless cancelled. */
  final class Deadline {
    final TimeSource clock;
    final long dueNanos;
    @SuppressWarnings("unused") // accessed through EXPIRY
    private volatile @Nullable Runnable expiry;

    Deadline(TimeSource clock, long dueNanos, Runnable expiry) {
      this.clock = clock;
      this.dueNanos = dueNanos;
      this.expiry = expiry;
    }

    private @Nullable Runnable drop() {
      return (Runnable) EXPIRY.getAndSet(this, (Runnable) null);
    }

    /** Drops the expiry (the call ended in time); the deadline then does nothing. */
    void cancel() {
      if (drop() != null) {
        cancelledShells.incrementAndGet();
      }
    }

    /** Takes the expiry to run it; null if cancelled (the shell is then counted as gone). */
    @Nullable Runnable take() {
      Runnable taken = drop();
      if (taken == null) {
        cancelledShells.decrementAndGet();
      }
      return taken;
    }

    boolean cancelled() {
      return expiry == null;
    }
  }

  /**
   * Creates an empty set of deadlines.
   *
   * @param system the time source that follows real time, whose deadlines can be waited for
   */
  Deadlines(TimeSource system) {
    this.system = system;
  }

  /**
   * Adds a deadline and makes sure the thread will see it in time.
   *
   * @param clock the time source it is read against
   * @param dueNanos when it is due, in that source's nanoseconds
   * @param expiry what to run then; must be short and must not throw
   * @return the deadline, to cancel when the call ends in time
   */
  Deadline add(TimeSource clock, long dueNanos, Runnable expiry) {
    Deadline deadline = offer(clock, dueNanos, expiry);
    Thread running = thread;
    if (running == null) {
      running = start();
    }
    int waiting = mode; // read after the offer: the thread publishes its plan before it re-checks
    if (waiting == IDLE
        || waiting == TIMED && (clock != system || dueNanos - wakeAtNanos < 0)) {
      LockSupport.unpark(running);
    }
    return deadline;
  }

  /** Queues a deadline for the thread without waking it. */
  Deadline offer(TimeSource clock, long dueNanos, Runnable expiry) {
    Deadline deadline = new Deadline(clock, dueNanos, expiry);
    added.add(deadline);
    return deadline;
  }

  private synchronized Thread start() {
    Thread running = thread;
    if (running == null) {
      running = Threads.start(Threads.shared(), "guard-deadlines", this::loop);
      thread = running;
    }
    return running;
  }

  private void loop() {
    List<Runnable> due = new ArrayList<>();
    while (true) {
      takeDue(due);
      for (Runnable expiry : due) {
        try {
          expiry.run();
        } catch (Throwable ignored) {
          // an expiry reports its own failures; this thread serves every engine and must not end
        }
      }
      due.clear();
      long wait = plan();
      if (wait == UNTIL_ADDED) {
        mode = IDLE;
      } else if (wait == LOOK_NANOS) {
        mode = POLLING;
      } else {
        wakeAtNanos = system.nanoTime() + wait;
        mode = TIMED;
      }
      if (!added.isEmpty()) {
        continue; // added while planning: its adder may have read the old plan
      }
      if (wait == UNTIL_ADDED) {
        LockSupport.park(this);
      } else {
        LockSupport.parkNanos(this, wait);
      }
    }
  }

  /**
   * Moves added deadlines into their queues, sweeps out cancelled shells when they make up half
   * of what is queued, and collects the expiries that are due.
   *
   * @param due receives the expiries to run
   */
  void takeDue(List<Runnable> due) {
    long queued = 0;
    for (Deadline deadline = added.poll(); deadline != null; deadline = added.poll()) {
      pending.computeIfAbsent(deadline.clock, clock -> new PriorityQueue<>(
          (a, b) -> Long.compare(a.dueNanos - b.dueNanos, 0L))).add(deadline);
    }
    for (PriorityQueue<Deadline> waiting : pending.values()) {
      queued += waiting.size();
    }
    long shells = cancelledShells.get();
    if (shells >= SWEEP_FROM && 2 * shells >= queued) {
      for (PriorityQueue<Deadline> waiting : pending.values()) {
        waiting.removeIf(deadline -> deadline.cancelled() && deadline.take() == null);
      }
    }
    for (Map.Entry<TimeSource, PriorityQueue<Deadline>> queue : pending.entrySet()) {
      long now;
      try {
        now = queue.getKey().nanoTime();
      } catch (RuntimeException failed) {
        continue; // a time source of the application's that fails: its deadlines wait, not others'
      }
      PriorityQueue<Deadline> waiting = queue.getValue();
      while (!waiting.isEmpty() && now - waiting.peek().dueNanos >= 0) {
        Runnable expiry = waiting.poll().take();
        if (expiry != null) {
          due.add(expiry);
        }
      }
    }
    pending.values().removeIf(PriorityQueue::isEmpty);
  }

  /**
   * How long the thread may park now: {@link #UNTIL_ADDED} with nothing pending, {@link
   * #LOOK_NANOS} while a deadline on a time source other than the system's is pending, else until
   * the earliest deadline is due.
   */
  long plan() {
    if (pending.isEmpty()) {
      return UNTIL_ADDED;
    }
    PriorityQueue<Deadline> onSystem = pending.get(system);
    if (onSystem == null || pending.size() > 1) {
      return LOOK_NANOS;
    }
    return Math.max(1L, onSystem.peek().dueNanos - system.nanoTime());
  }

  /** Deadlines queued, cancelled shells included (for tests). */
  long queued() {
    long queued = 0;
    for (PriorityQueue<Deadline> waiting : pending.values()) {
      queued += waiting.size();
    }
    return queued;
  }
}
