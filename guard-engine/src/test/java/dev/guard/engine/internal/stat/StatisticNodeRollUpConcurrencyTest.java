package dev.guard.engine.internal.stat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several threads write while engine time moves across second-level resets, so roll-ups race with
 * writes and reads. What {@link StatisticNode} promises: once the writers stop, the minute totals
 * count every write exactly once; while they run, a minute read never exceeds the writes begun.
 */
class StatisticNodeRollUpConcurrencyTest {

  private static final int THREADS = 8;
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
  void minuteTotals_writersRacingRollUps_countEveryWriteOnceAfterwards() throws Exception {
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);
    AtomicLong clock = new AtomicLong(T0);
    AtomicLong begunPasses = new AtomicLong();
    List<String> overCounts = new CopyOnWriteArrayList<>();
    int rounds = 20_000; // every thread moves the clock 1 ms per 8 rounds: 20 s in all

    runOnAllThreads(
        () -> {
          for (int i = 0; i < rounds; i++) {
            long now = i % 8 == 0 ? clock.incrementAndGet() : clock.get();
            begunPasses.incrementAndGet();
            node.addPass(now, 1);
            node.addRefused(now, 2);
            node.addRtAndSuccess(now, 3, 1);
            if (i % 64 == 0) {
              long total = node.totalPass(now);
              long begun = begunPasses.get();
              if (total > begun) {
                overCounts.add("totalPass " + total + " > " + begun + " at " + now);
              }
            }
          }
        });

    long end = clock.get();
    long writes = (long) THREADS * rounds;
    assertThat(end - T0).as("time spanned").isBetween(1_000L, 59_000L);
    assertThat(overCounts).isEmpty();
    assertSoftly(
        softly -> {
          softly.assertThat(node.totalPass(end)).as("totalPass").isEqualTo(writes);
          softly.assertThat(node.refusedRequest(end)).as("refusedRequest").isEqualTo(2 * writes);
          softly.assertThat(node.totalSuccess(end)).as("totalSuccess").isEqualTo(writes);
        });
  }

  @Test
  void minuteReads_stepwiseWritesOverMoreThanAMinute_areExactAtEveryStep() throws Exception {
    StatisticNode node = new StatisticNode(WindowGeometry.SECOND_DEFAULT);
    int steps = 280; // 250 ms apart: 70 s
    int addsPerStep = 50;
    long perStep = (long) THREADS * addsPerStep;
    List<String> mismatches = new CopyOnWriteArrayList<>();
    long[] stepTime = {T0};
    CyclicBarrier barrier =
        new CyclicBarrier(
            THREADS,
            () -> {
              long now = stepTime[0];
              long step = (now - T0) / 250; // 4 steps per second
              long firstInMinute = Math.max(0, 4 * (step / 4 - 59)); // first step of the minute
              long stepsInMinute = step - firstInMinute + 1;
              long stepsInPrevious = step >= 4 ? 4 : 0;
              check(mismatches, now, "totalPass", node.totalPass(now), stepsInMinute * perStep);
              check(mismatches, now, "previousPassQps", (long) node.previousPassQps(now),
                  stepsInPrevious * perStep);
              stepTime[0] += 250;
            });

    runOnAllThreads(
        () -> {
          for (int step = 0; step < steps; step++) {
            long now = T0 + 250L * step;
            for (int i = 0; i < addsPerStep; i++) {
              node.addPass(now, 1);
            }
            barrier.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
          }
        });

    assertThat(mismatches).isEmpty();
  }

  private static void check(List<String> mismatches, long now, String read, long actual,
      long expected) {
    if (actual != expected) {
      mismatches.add(read + " at " + now + ": " + actual + " != " + expected);
    }
  }

  /** A task body that may throw. */
  @FunctionalInterface
  private interface Body {
    void call() throws Exception;
  }
}
