package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TokenService;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Accuracy of cluster flow rules on a real {@code redis-server} under sustained overload: several
 * instances (each its own token service and engine) call on threads that race in every 100 ms
 * bucket, and every second of the shared window admits exactly the limit.
 *
 * <p>The windows run on one {@link ManualClock} shared by every instance ({@code windowClock}),
 * so the test drives simulated seconds: each bucket, every instance makes its calls on its own
 * thread at the same time, and the clock moves on when all have returned. Every decision is still
 * made by the script on the real server, atomically.
 */
@Tag("process")
class RedisAccuracyTest {

  private static final int BUCKETS_PER_SECOND = 10;

  private final ManualClock clock = ManualClock.startingAt(Duration.ofDays(1).toNanos());
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<Instance> instances = new ArrayList<>();
  private RedisServer redis;

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServer.start();
  }

  @AfterEach
  void stop() throws Exception {
    threads.shutdownNow();
    for (Instance instance : instances) {
      instance.service.close();
    }
    redis.close();
  }

  /** One instance: its own token service and engine. */
  private final class Instance {
    final RedisTokenService service;
    final GuardEngine engine;
    final FlowRule rule;
    boolean running = true;

    Instance(String id, FlowRule rule) throws InterruptedException {
      this.rule = rule;
      service = RedisTokenService.builder(redis.uri(), "accuracy")
          .instanceId(id)
          .instanceExpiry(Duration.ofSeconds(1))
          .requestTimeout(Duration.ofSeconds(5)) // counts decisions, never timeouts
          .clock(clock)
          .windowClock(clock)
          .build();
      awaitConnected(service);
      engine = GuardEngine.builder().clock(clock).tokenService(service).build();
      engine.apply(engine.ruleSet().withRulesOf(rule.resource(), List.of(rule)));
      instances.add(this);
    }

    /** Makes {@code attempts} calls; returns how many were admitted. */
    int calls(int attempts) {
      int admitted = 0;
      for (int i = 0; i < attempts; i++) {
        try (Entry ignored = engine.resource(rule.resource()).enter()) {
          admitted++;
        } catch (RefusedException refused) {
          // overload: most calls are refused
        }
      }
      return admitted;
    }
  }

  /** Waits until the service answers (it connects in the background), on a flow id of its own. */
  private static void awaitConnected(RedisTokenService service) throws InterruptedException {
    FlowRule probe = FlowRule.qps("probe", 1_000_000).withCluster(ClusterMode.global("probe"));
    assertThat(TokenRequests.firstAnswer(service, probe).status()).as("connected within 10 s")
        .isEqualTo(TokenService.Result.Status.OK);
  }

  /**
   * Runs whole seconds: in each 100 ms bucket every running instance makes {@code attempts} calls
   * on its own thread, all at once. Returns the admitted calls per second.
   */
  private List<Integer> seconds(int count, int attempts) throws Exception {
    List<Integer> admitted = new ArrayList<>();
    for (int second = 0; second < count; second++) {
      int total = 0;
      for (int bucket = 0; bucket < BUCKETS_PER_SECOND; bucket++) {
        List<Future<Integer>> results = new ArrayList<>();
        for (Instance instance : instances) {
          if (instance.running) {
            results.add(threads.submit(() -> instance.calls(attempts)));
          }
        }
        for (Future<Integer> result : results) {
          total += result.get(30, TimeUnit.SECONDS);
        }
        clock.advanceMillis(1000 / BUCKETS_PER_SECOND);
      }
      admitted.add(total);
    }
    return admitted;
  }

  @Test
  void fourEnginesOnAGlobalRule_admitTheLimitEverySecond() throws Exception {
    FlowRule rule = FlowRule.qps("orders", 200).withCluster(ClusterMode.global("orders"));
    for (int i = 0; i < 4; i++) {
      new Instance("i" + i, rule);
    }

    List<Integer> perSecond = seconds(10, 30); // 1,200 attempts a second against 200

    assertThat(perSecond).containsExactly(200, 200, 200, 200, 200, 200, 200, 200, 200, 200);
    assertThat(instances.get(0).service.instances("orders")).as("who shares the limit")
        .hasValue(4);
    assertThat(instances).allSatisfy(i -> assertThat(i.service.available()).isTrue());
  }

  @Test
  void perInstanceRule_followsTheLiveInstances() throws Exception {
    FlowRule rule = FlowRule.qps("search", 50).withCluster(ClusterMode.perInstance("search"));
    for (int i = 0; i < 3; i++) {
      new Instance("i" + i, rule);
    }

    List<Integer> three = seconds(2, 20);
    Instance stopped = instances.get(2);
    stopped.running = false; // it stops asking: it no longer counts 1 s after its last request
    List<Integer> expiring = seconds(2, 20);
    List<Integer> two = seconds(2, 20);

    assertThat(three).containsExactly(150, 150);
    assertThat(expiring.get(0)).as("still counted for 1 s").isEqualTo(150);
    assertThat(two).containsExactly(100, 100);
    assertThat(instances.get(0).service.instances("search")).hasValue(2);
    assertThat(instances.get(0).service.instances("unknown")).hasValue(0);
    assertThat(instances).allSatisfy(i -> assertThat(i.service.available()).isTrue());
  }
}
