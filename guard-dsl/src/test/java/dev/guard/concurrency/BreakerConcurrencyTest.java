package dev.guard.concurrency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.api.CircuitBreaker;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testing.Together;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Eight threads hammer one breaker around a flaky dependency: a half-open breaker never lets more
 * than its probes run at once, and every admitted call is exited exactly once.
 */
class BreakerConcurrencyTest {

  private static final int THREADS = 8;
  private static final long PATIENCE_SECONDS = 10;

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  /** Runs {@code task} on {@link #THREADS} threads released together; waits for all, bounded. */
  private static void onEightThreads(Together.Work task) throws Exception {
    Together.run(THREADS, task);
  }

  @Test
  void halfOpen_eightThreadsRacing_runAtMostTheConfiguredProbesAtOnce() throws Exception {
    Guard guard = Guard.of("flaky").errorCount(0).minCalls(1)
        .openFor(Duration.ofSeconds(1)).probes(3).on(engine);
    CircuitBreaker breaker;
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostRunning = new AtomicInteger();
    AtomicLong bodies = new AtomicLong();
    SplittableRandom random = new SplittableRandom(42);

    for (int round = 0; round < 25; round++) {
      breaker = engine.breakers("flaky").isEmpty() ? null : engine.breakers("flaky").get(0);
      if (breaker == null || breaker.state() == CircuitBreaker.State.CLOSED) {
        bodies.incrementAndGet();
        assertThatThrownBy(() -> guard.call(() -> {
          throw new IllegalStateException("down");
        })).isInstanceOf(IllegalStateException.class);
      }
      clock.advance(Duration.ofSeconds(1));
      CountDownLatch release = new CountDownLatch(1);
      CountDownLatch settled = new CountDownLatch(THREADS); // admitted, or refused 20 times
      AtomicInteger admitted = new AtomicInteger();
      boolean fail = random.nextInt(3) == 0;
      Supplier<String> probe = guard.decorate(() -> {
        bodies.incrementAndGet();
        admitted.incrementAndGet();
        mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        settled.countDown();
        try {
          release.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          running.decrementAndGet();
        }
        if (fail) {
          throw new IllegalStateException("still down");
        }
        return "ok";
      });
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> calls = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        calls.add(pool.submit(() -> {
          for (int attempt = 0; attempt < 20; attempt++) {
            try {
              probe.get();
              return;
            } catch (IllegalStateException failedProbe) {
              return;
            } catch (RefusedException refused) {
              // the probes are taken
            }
          }
          settled.countDown();
        }));
      }
      assertThat(settled.await(PATIENCE_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(admitted.get()).as("round " + round).isEqualTo(3);
      release.countDown();
      for (Future<?> call : calls) {
        call.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
      }
      pool.shutdownNow();
      assertThat(engine.breakers("flaky").get(0).state())
          .isEqualTo(fail ? CircuitBreaker.State.OPEN : CircuitBreaker.State.CLOSED);
    }

    assertThat(mostRunning.get()).isEqualTo(3);
    NodeStats stats = engine.stats("flaky");
    assertThat(stats.concurrency()).isZero();
    assertThat(stats.totalPass()).isEqualTo(bodies.get());
  }

  @Test
  void flakyDependency_eightThreadsAndAMovingClock_everyCallExitsExactlyOnce() throws Exception {
    Supplier<String> guarded = Guard.of("dependency")
        .errorRatio(0.5).minCalls(5).window(Duration.ofMillis(200), 4)
            .openFor(Duration.ofMillis(50)).probes(2)
        .on(engine)
        .decorate(() -> {
          if ((clock.nanoTime() / 100_000_000L) % 2 == 0) {
            throw new IllegalStateException("outage");
          }
          return "ok";
        });
    AtomicLong attempts = new AtomicLong();
    AtomicLong admitted = new AtomicLong();
    AtomicBoolean sawOpen = new AtomicBoolean();

    onEightThreads(thread -> {
      for (int i = 0; i < 4000; i++) {
        attempts.incrementAndGet();
        try {
          guarded.get();
          admitted.incrementAndGet();
        } catch (IllegalStateException failed) {
          admitted.incrementAndGet();
        } catch (RefusedException refused) {
          sawOpen.set(true);
        }
        if (thread == 0 && i % 20 == 0) {
          clock.advanceMillis(3);
        }
      }
    });

    NodeStats stats = engine.stats("dependency");
    assertThat(stats.concurrency()).isZero();
    assertThat(stats.totalPass()).isEqualTo(admitted.get());
    assertThat(stats.totalPass() + stats.totalRefused()).isEqualTo(attempts.get());
    assertThat(sawOpen).isTrue();
  }
}
