package dev.guard.redis;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Figures of cluster per-value rules on a local {@code redis-server}, printed, not asserted (run
 * by hand: {@code mvn -q -pl guard-redis -am test-compile} then {@code java} with the test class
 * path, or from an IDE):
 *
 * <ul>
 *   <li>accuracy: four engines on four threads race for 200 keys of a rule of 10 a minute and 25
 *       an hour, over 4 simulated minutes on a shared manual clock; every key's admitted calls
 *       are compared with the quota;
 *   <li>memory: {@code MEMORY USAGE} of the flow id's two keys after 1,000, 10,000 and 100,000
 *       distinct values, divided by the values remembered.
 * </ul>
 */
public final class PerKeyFigures {

  private PerKeyFigures() {}

  /**
   * Runs both measurements and prints them.
   *
   * @param args none
   * @throws Exception if the server cannot be started
   */
  public static void main(String[] args) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      accuracy(redis);
      memory(redis);
    }
  }

  private static RedisTokenService service(RedisServer redis, String namespace, ManualClock clock)
      throws InterruptedException {
    RedisTokenService service = RedisTokenService.builder(redis.uri(), namespace)
        .clock(clock).windowClock(clock).requestTimeout(Duration.ofSeconds(5)).build();
    FlowRule probe = FlowRule.qps("probe", 1e9).withCluster(ClusterMode.global("probe"));
    TokenRequests.firstAnswer(service, probe);
    return service;
  }

  private static void accuracy(RedisServer redis) throws Exception {
    ManualClock clock = ManualClock.startingAt(Duration.ofDays(3).toNanos());
    PerValueRule rule = PerValueRule.qps("api", 0, 10).withPeriod(Duration.ofMinutes(1))
        .withQuota(25, Duration.ofHours(1)).withCluster(ClusterMode.global("api-keys"));
    int keys = 200;
    int engines = 4;
    List<RedisTokenService> services = new ArrayList<>();
    List<GuardEngine> guards = new ArrayList<>();
    for (int i = 0; i < engines; i++) {
      RedisTokenService service = service(redis, "accuracy", clock);
      services.add(service);
      GuardEngine engine = GuardEngine.builder().clock(clock).tokenService(service).build();
      engine.apply(engine.ruleSet().withRulesOf("api", List.of(rule)));
      guards.add(engine);
    }
    ExecutorService threads = Executors.newFixedThreadPool(engines);
    AtomicIntegerArray admitted = new AtomicIntegerArray(keys);
    long started = System.nanoTime();
    int attempts = 0;
    for (int minute = 0; minute < 4; minute++) {
      List<Future<?>> running = new ArrayList<>();
      for (GuardEngine engine : guards) {
        running.add(threads.submit(() -> {
          for (int round = 0; round < 6; round++) {
            for (int key = 0; key < keys; key++) {
              try (Entry ignored = engine.resource("api").enter("key-" + key)) {
                admitted.incrementAndGet(key);
              } catch (RefusedException.PerValue refused) {
                // over the key's quota
              }
            }
          }
        }));
        attempts += 6 * keys;
      }
      for (Future<?> done : running) {
        done.get();
      }
      clock.advance(Duration.ofMinutes(1).plusMillis(1));
    }
    long elapsedMs = (System.nanoTime() - started) / 1_000_000;
    threads.shutdown();
    int exact = 0;
    int over = 0;
    int under = 0;
    for (int key = 0; key < keys; key++) {
      int got = admitted.get(key);
      if (got == 25) {
        exact++;
      } else if (got > 25) {
        over++;
      } else {
        under++;
      }
    }
    System.out.printf("accuracy: %d engines, %d keys, %d attempts in %d ms: %d keys exactly 25"
        + " (quota), %d over, %d under%n", engines, keys, attempts, elapsedMs, exact, over, under);
    services.forEach(RedisTokenService::close);
  }

  private static void memory(RedisServer redis) throws Exception {
    ManualClock clock = ManualClock.startingAt(Duration.ofDays(3).toNanos());
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      RedisCommands<String, String> commands = connection.sync();
      for (int values : new int[] {1_000, 10_000, 100_000}) {
        String flowId = "memory-" + values;
        PerValueRule rule = PerValueRule.qps("api", 0, 100).withPeriod(Duration.ofMinutes(1))
            .withQuota(10_000, Duration.ofDays(1)).withMaxValues(200_000)
            .withCluster(ClusterMode.global(flowId));
        try (RedisTokenService service = service(redis, "memory", clock)) {
          for (int i = 0; i < values; i++) {
            service.requestValueToken(rule, "user-" + (1_000_000 + i), 1);
          }
        }
        String prefix = "guard:{memory:" + flowId + "}";
        long hash = commands.memoryUsage(prefix + ":pv");
        long set = commands.memoryUsage(prefix + ":pr");
        long remembered = commands.hlen(prefix + ":pv");
        System.out.printf("memory: %d values (rule + 1 quota, values of 12 characters):"
            + " hash %d B + sorted set %d B = %.0f B per value%n", remembered, hash, set,
            (hash + set) / (double) remembered);
      }
    } finally {
      client.shutdown();
    }
  }
}
