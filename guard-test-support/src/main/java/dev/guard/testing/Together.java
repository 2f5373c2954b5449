package dev.guard.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs work on several threads released at the same moment, and waits, bounded, for all of them.
 *
 * <pre>{@code
 * Together.run(8, thread -> {
 *   for (int i = 0; i < 1000; i++) {
 *     node.addPass(T0, 1);
 *   }
 * });
 * }</pre>
 */
public final class Together {

  /** The longest wait for all threads; reaching it means the test failed, not that it was slow. */
  public static final Duration PATIENCE = Duration.ofSeconds(60);

  private Together() {}

  /** The work of one thread. */
  @FunctionalInterface
  public interface Work {
    /**
     * Does one thread's share.
     *
     * @param thread the thread's index, 0 to threads - 1
     * @throws Exception to fail the run with it
     */
    void run(int thread) throws Exception;
  }

  /**
   * Runs {@code work} on {@code threads} threads, each given its index, all released together once
   * every one is running, and waits for them, at most {@link #PATIENCE}.
   *
   * @param threads how many threads, at least 1
   * @param work what each thread does
   * @throws ExecutionException what a thread threw, as its cause
   * @throws TimeoutException when the threads did not all finish within {@link #PATIENCE}
   * @throws InterruptedException when interrupted while waiting
   */
  public static void run(int threads, Work work)
      throws ExecutionException, TimeoutException, InterruptedException {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, was " + threads);
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int index = t;
        done.add(pool.submit(() -> {
          start.await();
          work.run(index);
          return null;
        }));
      }
      start.countDown();
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      for (Future<?> future : done) {
        future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
