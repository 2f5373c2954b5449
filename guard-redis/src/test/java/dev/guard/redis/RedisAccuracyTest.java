package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.BlockedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.TokenResult;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Accuracy of cluster flow rules on a real {@code redis-server} under sustained overload: engines
 * on threads call as fast as they can while the shared window refuses most calls, and the
 * admitted calls are counted per second of the server's clock.
 *
 * <p>The shared windows run on the Redis server's clock (the service's time source only paces its
 * back-off), so these tests run in real time, about 20 s together. They count on the server: a
 * monitor reads the window's hash every 100 ms and keeps each bucket's last value (a bucket stays
 * readable for about 900 ms after it ends), and the seconds are the server's epoch seconds, which
 * are made of exactly ten 100 ms buckets. The engines' own clocks are manual, so a call that fell
 * back to the local rule would show as a difference between the engines' total and the server's.
 */
class RedisAccuracyTest {

  private RedisServer redis;
  private RedisClient client;
  private RedisCommands<String, String> monitor;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<Instance> started = new ArrayList<>();

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServer.start();
    client = RedisClient.create(redis.uri());
    StatefulRedisConnection<String, String> connection = client.connect();
    open.add(connection);
    monitor = connection.sync();
  }

  @AfterEach
  void stop() throws Exception {
    for (Instance instance : started) {
      instance.running.set(false);
      instance.thread.join(TimeUnit.SECONDS.toMillis(30));
    }
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    redis.close();
  }

  /** One instance: its own token service and engine, and a thread calling while it runs. */
  private final class Instance {
    final RedisTokenService service;
    final GuardEngine engine;
    final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicLong admitted = new AtomicLong();
    final AtomicLong attempts = new AtomicLong();
    final Thread thread;

    Instance(String id, FlowRule rule) throws InterruptedException {
      service = RedisTokenService.builder(redis.uri(), "accuracy")
          .instanceId(id)
          .instanceExpiry(Duration.ofSeconds(1))
          .requestTimeout(Duration.ofSeconds(2)) // counts decisions, not timeouts
          .build();
      open.add(service);
      awaitConnected(service);
      engine = GuardEngine.builder().clock(new ManualClock()).tokenService(service).build();
      engine.loadRules(rule.resource(), List.of(rule));
      thread = new Thread(() -> {
        while (running.get()) {
          attempts.incrementAndGet();
          try (Entry ignored = engine.enter(rule.resource())) {
            admitted.incrementAndGet();
          } catch (BlockedException refused) {
            // overload: most calls are refused
          }
          LockSupport.parkNanos(200_000); // leaves the shared cores some air; still > 10x the limit
        }
      }, "accuracy " + id);
      started.add(this);
      thread.start();
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join(TimeUnit.SECONDS.toMillis(30));
    }
  }

  /** Waits until the service answers (it connects in the background), on a flow id of its own. */
  private static void awaitConnected(RedisTokenService service) throws InterruptedException {
    FlowRule probe = FlowRule.qps("probe", 1_000_000).withCluster(ClusterMode.global("probe"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (service.requestToken(probe, 1, false).status() != TokenResult.Status.OK) {
      assertThat(System.nanoTime() - deadline).as("connected within 10 s").isNegative();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  private long serverMillis() {
    List<String> time = monitor.time();
    return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
  }

  /** Reads the window's buckets until {@code untilMs} on the server clock; returns bucket → passes. */
  private Map<Long, Long> watch(String flowId, long untilMs) {
    String key = "guard:{accuracy:" + flowId + "}:w";
    Map<Long, Long> buckets = new ConcurrentSkipListMap<>();
    long lastRead = serverMillis();
    long longestGap = 0;
    while (true) {
      for (Map.Entry<String, String> field : monitor.hgetall(key).entrySet()) {
        if (field.getKey().chars().allMatch(Character::isDigit)) {
          buckets.merge(Long.parseLong(field.getKey()), Long.parseLong(field.getValue()), Math::max);
        }
      }
      long now = serverMillis();
      longestGap = Math.max(longestGap, now - lastRead);
      lastRead = now;
      if (now >= untilMs) {
        break;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
    }
    assertThat(longestGap).as("the monitor read every bucket before it expired").isLessThan(800);
    return buckets;
  }

  /** Passes per server second (epoch second → passes), from bucket index → passes. */
  private static TreeMap<Long, Long> perSecond(Map<Long, Long> buckets) {
    TreeMap<Long, Long> seconds = new TreeMap<>();
    buckets.forEach((bucket, passes) -> seconds.merge(bucket / 10, passes, Long::sum));
    return seconds;
  }

  private static List<Long> counts(TreeMap<Long, Long> seconds, long from, long to) {
    List<Long> counts = new ArrayList<>();
    for (long s = from; s < to; s++) {
      counts.add(seconds.getOrDefault(s, 0L));
    }
    return counts;
  }

  @Test
  void fourEnginesOnAGlobalRule_admitTheLimitEverySecond() throws Exception {
    FlowRule rule = FlowRule.qps("orders", 200).withCluster(ClusterMode.global("orders"));
    List<Instance> instances = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      instances.add(new Instance("i" + i, rule));
    }
    long first = serverMillis() / 1000 + 1; // the first whole second of overload
    Map<Long, Long> buckets = watch("orders", (first + 10) * 1000);
    for (Instance instance : instances) {
      instance.stop();
    }
    buckets.putAll(watchOnce("orders", buckets));

    List<Long> counts = counts(perSecond(buckets), first, first + 10);
    long attempts = instances.stream().mapToLong(i -> i.attempts.get()).sum();
    System.out.printf("global 200/s, 4 engines, %d attempts: admitted per second %s%n",
        attempts, counts);
    assertThat(counts).hasSize(10).allSatisfy(n -> assertThat(n).isBetween(198L, 202L));
    assertThat(instances.stream().mapToLong(i -> i.admitted.get()).sum())
        .as("every admission was the server's decision")
        .isEqualTo(buckets.values().stream().mapToLong(Long::longValue).sum());
  }

  @Test
  void perInstanceRule_followsTheLiveInstances() throws Exception {
    FlowRule rule = FlowRule.qps("search", 50).withCluster(ClusterMode.perInstance("search"));
    List<Instance> instances = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      instances.add(new Instance("i" + i, rule));
    }
    long first = serverMillis() / 1000 + 1;
    Map<Long, Long> buckets = new TreeMap<>(watch("search", (first + 2) * 1000));

    instances.get(2).stop(); // its client stops asking: it expires 1 s after its last request
    instances.get(2).service.close();
    open.remove(instances.get(2).service);
    long stoppedMs = serverMillis();
    long firstOfTwo = (stoppedMs + 1000) / 1000 + 1; // the first whole second after the expiry
    buckets.putAll(watch("search", (firstOfTwo + 2) * 1000));
    instances.get(0).stop();
    instances.get(1).stop();
    buckets.putAll(watchOnce("search", buckets));

    TreeMap<Long, Long> seconds = perSecond(buckets);
    List<Long> three = counts(seconds, first, first + 2);
    List<Long> two = counts(seconds, firstOfTwo, firstOfTwo + 2);
    System.out.printf("per instance 50/s: 3 instances %s, after one stopped %s, all %s%n",
        three, two, counts(seconds, first, firstOfTwo + 2));
    assertThat(three).allSatisfy(n -> assertThat(n).isBetween(148L, 152L));
    assertThat(two).allSatisfy(n -> assertThat(n).isBetween(98L, 102L));
    assertThat(instances.stream().mapToLong(i -> i.admitted.get()).sum())
        .as("every admission was the server's decision")
        .isEqualTo(buckets.values().stream().mapToLong(Long::longValue).sum());
  }

  /** One last read once the callers stopped, merged with what was seen before. */
  private Map<Long, Long> watchOnce(String flowId, Map<Long, Long> seen) {
    Map<Long, Long> merged = new TreeMap<>(seen);
    watch(flowId, 0).forEach((bucket, passes) -> merged.merge(bucket, passes, Math::max));
    return merged;
  }
}
