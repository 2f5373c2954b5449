package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StatisticNodeConcurrencyTest {

  private static final int THREADS = 8;
  private static final int ADDS_PER_THREAD = 20_000;
  private static final long T0 = 60_000L;
  private static final long TIMEOUT_SECONDS = 30;

  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

  @AfterEach
  void shutDown() {
    pool.shutdownNow();
  }

  private void runOnAllThreads(Body task) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      futures.add(
          pool.submit(
              () -> {
                start.await();
                task.call();
                return null;
              }));
    }
    start.countDown();
    for (Future<?> future : futures) {
      future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
  }

  @Test
  void addPass_eightThreadsAtSameTime_sumIsExact() throws Exception {
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);

    runOnAllThreads(
        () -> {
          for (int i = 0; i < ADDS_PER_THREAD; i++) {
            node.addPass(T0 + 100, 1);
          }
        });

    long expected = (long) THREADS * ADDS_PER_THREAD;
    assertThat(node.passQps(T0 + 100)).isEqualTo((double) expected);
    assertThat(node.totalPass(T0 + 100)).isEqualTo(expected);
  }

  @Test
  void addPass_eightThreadsCrossingBucketResets_eachWindowSumIsExact() throws Exception {
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);
    int steps = 8;
    int addsPerStep = 2_000;
    List<String> mismatches = new CopyOnWriteArrayList<>();
    long[] stepTime = {T0};
    CyclicBarrier barrier =
        new CyclicBarrier(
            THREADS,
            () -> {
              // every thread has added at stepTime and waits: the window holds this bucket and the
              // previous one (each 500 ms bucket is written in exactly one step)
              long now = stepTime[0];
              long buckets = now == T0 ? 1 : 2;
              long expected = buckets * THREADS * addsPerStep;
              long actual = (long) node.passQps(now);
              if (actual != expected) {
                mismatches.add("at " + now + ": " + actual + " != " + expected);
              }
              stepTime[0] += 500;
            });

    runOnAllThreads(
        () -> {
          for (int step = 0; step < steps; step++) {
            long now = T0 + 500L * step;
            for (int i = 0; i < addsPerStep; i++) {
              node.addPass(now, 1);
            }
            awaitBarrier(barrier);
          }
        });

    assertThat(mismatches).isEmpty();
  }

  @Test
  void threads_eightThreadsBalanced_gaugeReturnsToZero() throws Exception {
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);

    runOnAllThreads(
        () -> {
          for (int i = 0; i < ADDS_PER_THREAD; i++) {
            node.increaseThreads();
            node.addRtAndSuccess(T0 + i % 3000, 5, 1);
            node.decreaseThreads();
          }
        });

    assertThat(node.concurrency()).isZero();
  }

  private static void awaitBarrier(CyclicBarrier barrier)
      throws InterruptedException, BrokenBarrierException, TimeoutException {
    barrier.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  /** A task body that may throw. */
  @FunctionalInterface
  private interface Body {
    void call() throws Exception;
  }
}
