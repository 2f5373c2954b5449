package dev.guard;

import dev.guard.spi.TimeSource;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The deadlines of timed asynchronous calls ({@link Guard#timeout}), kept by one daemon thread
 * for every engine: calls add a deadline (a lock-free queue), the thread moves them into one
 * queue per time source, ordered by due time, and runs each deadline's expiry once its time
 * source reads its due time. While deadlines are pending it looks every millisecond (of real
 * time); with none it parks until one is added. An expiry that finds its call already ended does
 * nothing, so a call that ends in time leaves its deadline to be dropped when it comes due.
 *
 * <p>A deadline is read against the time source of its engine, so on a {@code ManualClock} it
 * expires once the test has advanced the clock past it (within about a millisecond of real time
 * after that). Expiries run on this thread and must be short.
 */
final class Deadlines {

  static final Deadlines SHARED = new Deadlines();

  private static final long LOOK_NANOS = 1_000_000L;

  private final ConcurrentLinkedQueue<Deadline> added = new ConcurrentLinkedQueue<>();
  private final Map<TimeSource, PriorityQueue<Deadline>> pending = new IdentityHashMap<>();
  private volatile @Nullable Thread thread;

  /** One deadline: its time source, when it is due, and what happens then. */
  record Deadline(TimeSource clock, long dueNanos, Runnable expiry) {}

  private Deadlines() {}

  /**
   * Adds a deadline.
   *
   * @param clock the time source it is read against
   * @param dueNanos when it is due, in that source's nanoseconds
   * @param expiry what to run then; must be short and must not throw
   */
  void add(TimeSource clock, long dueNanos, Runnable expiry) {
    added.add(new Deadline(clock, dueNanos, expiry));
    Thread running = thread;
    if (running == null) {
      running = start();
    }
    LockSupport.unpark(running);
  }

  private synchronized Thread start() {
    Thread running = thread;
    if (running == null) {
      running = new Thread(this::loop, "guard-deadlines");
      running.setDaemon(true);
      running.start();
      thread = running;
    }
    return running;
  }

  private void loop() {
    List<Deadline> due = new ArrayList<>();
    while (true) {
      for (Deadline deadline = added.poll(); deadline != null; deadline = added.poll()) {
        pending.computeIfAbsent(deadline.clock(), clock -> new PriorityQueue<>(
            (a, b) -> Long.compare(a.dueNanos() - b.dueNanos(), 0L))).add(deadline);
      }
      pending.values().removeIf(PriorityQueue::isEmpty);
      for (Map.Entry<TimeSource, PriorityQueue<Deadline>> queue : pending.entrySet()) {
        long now = queue.getKey().nanoTime();
        PriorityQueue<Deadline> waiting = queue.getValue();
        while (!waiting.isEmpty() && now - waiting.peek().dueNanos() >= 0) {
          due.add(waiting.poll());
        }
      }
      for (Deadline deadline : due) {
        try {
          deadline.expiry().run();
        } catch (RuntimeException ignored) {
          // an expiry reports its own failures; one must not stop the others
        }
      }
      due.clear();
      if (pending.isEmpty() && added.isEmpty()) {
        LockSupport.park(this);
      } else {
        LockSupport.parkNanos(this, LOOK_NANOS);
      }
    }
  }
}
