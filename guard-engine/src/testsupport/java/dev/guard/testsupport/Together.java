package dev.guard.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/** Runs work on several threads released at the same moment, and waits (bounded) for all. */
public final class Together {

  private Together() {}

  /**
   * Runs {@code work} on {@code threads} threads, each given its index.
   *
   * @throws Exception what a thread threw, or a timeout after 60 s
   */
  public static void run(int threads, IntConsumer work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int index = t;
        done.add(pool.submit(() -> {
          start.await();
          work.accept(index);
          return null;
        }));
      }
      start.countDown();
      for (Future<?> future : done) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
