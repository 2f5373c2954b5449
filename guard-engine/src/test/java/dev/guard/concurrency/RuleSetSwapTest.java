package dev.guard.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "Rule sets": calls on 8 threads while whole rule sets alternate. Every rule of
 * set k carries k (as its unused queueing bound) and refuses every call, so each refusal says which
 * set decided the call. Each call must be decided by one whole set (the refusing rule has the
 * shape of set k: QPS for even k, concurrency for odd k), and once a thread has seen set k on any
 * resource it never sees an older set on another.
 */
class RuleSetSwapTest {

  private static final int THREADS = 8;
  private static final int SETS = 100;
  private static final List<String> RESOURCES = List.of("r0", "r1", "r2", "r3", "r4", "r5");

  private static RuleSet set(int k) {
    List<Rule> rules = new ArrayList<>();
    for (String resource : RESOURCES) {
      FlowRule admitting = FlowRule.qps(resource, 1e9);
      FlowRule refusing = k % 2 == 0 ? FlowRule.qps(resource, 0)
          : FlowRule.concurrency(resource, 0);
      rules.add(admitting.withMaxQueueingTime(Duration.ofMillis(k)));
      rules.add(refusing.withMaxQueueingTime(Duration.ofMillis(k)));
    }
    return RuleSet.of(rules);
  }

  /** The set that refused a call: -1 if it was admitted or refused by a rule of the wrong shape. */
  private static long decidedBy(GuardEngine engine, String resource) {
    try (Entry ignored = engine.resource(resource).enter()) {
      return -1;
    } catch (RefusedException refused) {
      FlowRule rule = (FlowRule) refused.rule();
      long k = rule.maxQueueingTime().toMillis();
      boolean shapeOfK = (rule.metric() == FlowRule.Metric.QPS) == (k % 2 == 0) && rule.threshold() == 0;
      return shapeOfK ? k : -1;
    }
  }

  @Test
  void calls_whileSetsAlternate_areDecidedByOneWholeSet_andNeverGoBack() throws Exception {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    engine.apply(set(0));
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch ready = new CountDownLatch(THREADS + 1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
    try {
      List<Future<List<Long>>> callers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int offset = t;
        callers.add(pool.submit(() -> {
          List<Long> seen = new ArrayList<>();
          ready.countDown();
          ready.await();
          int i = offset;
          while (!done.get()) {
            seen.add(decidedBy(engine, RESOURCES.get(i++ % RESOURCES.size())));
            Thread.yield(); // leave the writer some of the shared cores
          }
          for (String resource : RESOURCES) {
            seen.add(decidedBy(engine, resource));
          }
          return seen;
        }));
      }
      Future<?> writer = pool.submit(() -> {
        ready.countDown();
        ready.await();
        for (int k = 1; k <= SETS; k++) {
          engine.apply(set(k));
        }
        done.set(true);
        return null;
      });
      writer.get(30, TimeUnit.SECONDS);
      for (Future<List<Long>> caller : callers) {
        List<Long> seen = caller.get(30, TimeUnit.SECONDS);
        assertThat(seen).doesNotContain(-1L);
        assertThat(seen).isSorted();
        assertThat(seen.get(seen.size() - 1)).isEqualTo(SETS);
      }
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
    assertThat(engine.ruleHistory()).hasSize(20);
    assertThat(engine.ruleSet()).isEqualTo(set(SETS));
  }
}
