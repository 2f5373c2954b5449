package dev.guard.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.SystemRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;

/**
 * {@code maxConcurrency = N} is exact under contention: when more threads than N enter inbound
 * calls at the same moment and none exits, exactly N are admitted.
 */
class SystemConcurrencyTest {

  private static final int THREADS = 8;
  private static final int LIMIT = 3;

  @RepeatedTest(20)
  void racingInboundCalls_admitExactlyTheLimit() throws InterruptedException {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxConcurrency(LIMIT))));
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch decided = new CountDownLatch(THREADS);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger admitted = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      String resource = "r" + (i % 3);
      Thread thread = new Thread(() -> {
        try {
          start.await();
          try (Entry ignored = engine.resource(resource).entryType(EntryType.IN).enter()) {
            admitted.incrementAndGet();
            decided.countDown();
            release.await(10, TimeUnit.SECONDS);
          } catch (RefusedException.SystemProtection shed) {
            refused.incrementAndGet();
            decided.countDown();
          }
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
      });
      thread.setDaemon(true);
      thread.start();
      threads.add(thread);
    }

    start.countDown();
    assertThat(decided.await(10, TimeUnit.SECONDS)).isTrue();
    int admittedWhileHeld = admitted.get();
    release.countDown();
    for (Thread thread : threads) {
      thread.join(10_000);
    }

    assertThat(admittedWhileHeld).isEqualTo(LIMIT);
    assertThat(refused.get()).isEqualTo(THREADS - LIMIT);
    assertThat(engine.inboundStats().concurrency()).isZero();
  }
}
