package dev.guard.dashboard.internal;

import dev.guard.api.internal.Threads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The worker pool of a dashboard on the JDK's HTTP server, with a deadline per request
 * (docs/DASHBOARD.md, "Slow clients").
 *
 * <p>The JDK server hands a connection to a worker as soon as its first bytes arrive, and the
 * worker then reads the request line, the headers and (in the handler) the body, blocking. A
 * client that sends half a request and waits would hold its worker for as long as it likes. Here
 * each exchange gets a deadline when a worker takes it up; past it the worker is interrupted,
 * which closes the connection (a socket channel is interruptible) and frees the worker. The
 * handler answers the request {@link #outsideDeadline outside} the deadline, so no interrupt
 * lands in a rule write, and writing the response gets a fresh deadline of the same length. The
 * settings belong to this server alone; no JVM-wide property is read or set.
 *
 * <p>{@value #WORKERS} workers, started when needed and stopped after 30 idle seconds; up to
 * {@value #QUEUED} more exchanges wait for a worker, and a connection beyond that is closed at
 * once. A worker's state moves armed, then disarmed or expired, under the deadline's lock, so an
 * interrupt never reaches a worker after its exchange ended.
 */
public final class RequestWorkers implements Executor, AutoCloseable {

  /** Workers serving requests at the same time. */
  public static final int WORKERS = 64;

  /** Exchanges that may wait for a worker. */
  public static final int QUEUED = 256;

  private final ThreadPoolExecutor pool;
  private final ScheduledThreadPoolExecutor timer;
  private final long deadlineNanos;
  private final ThreadLocal<@Nullable Deadline> current = new ThreadLocal<>();

  /**
   * Creates the pool.
   *
   * @param deadline how long reading a request, and then writing its response, may take
   * @param threads where the threads come from
   */
  public RequestWorkers(Duration deadline, ThreadFactory threads) {
    this.deadlineNanos = deadline.toNanos();
    this.pool = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(QUEUED), Threads.named(threads, "guard-dashboard-"));
    pool.allowCoreThreadTimeOut(true);
    this.timer = new ScheduledThreadPoolExecutor(1,
        Threads.named(threads, "guard-dashboard-deadlines-"));
    timer.setRemoveOnCancelPolicy(true);
  }


  @Override
  public void execute(Runnable exchange) {
    pool.execute(() -> run(exchange));
  }

  private void run(Runnable exchange) {
    Deadline deadline = new Deadline(Thread.currentThread());
    current.set(deadline);
    try {
      deadline.arm();
      exchange.run();
    } finally {
      deadline.disarm();
      current.remove();
      Thread.interrupted(); // the interrupt that cut this exchange off must not reach the next
    }
  }

  /**
   * Runs one step of an exchange without its deadline, then starts the deadline afresh (for
   * writing the response). Off a worker of this pool the step just runs.
   *
   * @param step the step, such as answering a request that has been read
   * @param <T> what the step returns
   * @return what the step returned
   * @throws InterruptedIOException if the deadline had passed already
   * @throws IOException if the step fails
   */
  public <T> T outsideDeadline(IoStep<T> step) throws IOException {
    Deadline deadline = current.get();
    if (deadline == null) {
      return step.run();
    }
    if (!deadline.disarm()) {
      throw new InterruptedIOException("the request took longer than its deadline");
    }
    try {
      return step.run();
    } finally {
      deadline.arm();
    }
  }

  /** Stops the workers (an exchange in progress is interrupted) and the deadline timer. */
  @Override
  public void close() {
    pool.shutdownNow();
    timer.shutdownNow();
  }

  /**
   * A step that may fail with an {@link IOException}.
   *
   * @param <T> what it returns
   */
  @FunctionalInterface
  public interface IoStep<T> {

    /**
     * Runs the step.
     *
     * @return its result
     * @throws IOException if it fails
     */
    T run() throws IOException;
  }

  /** The deadline of the exchange one worker runs; each arming has its own generation. */
  private final class Deadline {

    private final Thread worker;
    private @Nullable ScheduledFuture<?> pending;
    private long generation;
    private boolean expired;

    Deadline(Thread worker) {
      this.worker = worker;
    }

    synchronized void arm() {
      long armed = ++generation;
      pending = timer.schedule(() -> expire(armed), deadlineNanos, TimeUnit.NANOSECONDS);
    }

    /** Cancels the deadline; false if it had passed (the worker was interrupted). */
    synchronized boolean disarm() {
      generation++;
      ScheduledFuture<?> armed = pending;
      if (armed != null) {
        armed.cancel(false);
        pending = null;
      }
      return !expired;
    }

    private synchronized void expire(long armed) {
      if (armed == generation && !expired) {
        expired = true;
        worker.interrupt();
      }
    }
  }
}
