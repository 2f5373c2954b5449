package dev.guard.testkit;

import static dev.guard.testkit.SleepingThread.PATIENCE;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs one task on several threads released together, and waits, bounded, for all of them. */
final class Concurrently {

  @FunctionalInterface
  interface Task {
    void run() throws Exception;
  }

  private Concurrently() {}

  static void run(int threads, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> running = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        Callable<Void> released = () -> {
          go.await();
          task.run();
          return null;
        };
        running.add(pool.submit(released));
      }
      go.countDown();
      for (Future<?> f : running) {
        f.get(PATIENCE.toNanos(), TimeUnit.NANOSECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
