package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TokenService;
import dev.guard.testing.RedisClusterServers;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Cluster per-value rules on a real {@code redis-server}, one server and a 3-node Redis Cluster:
 * several engines in one JVM, each with its own token service, share each key's quotas exactly.
 * The buckets run on one {@link ManualClock} shared by the instances ({@code windowClock}); every
 * decision is made by the script on the server.
 */
@Tag("process")
class RedisPerValueTest {

  private static final String[] KEYS = {"alice", "bob", "carol", "dave", "erin"};

  private static RedisServer redis;
  private static RedisClusterServers nodes;

  private final ManualClock clock = ManualClock.startingAt(Duration.ofDays(2).toNanos());
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<RedisTokenService> services = new ArrayList<>();

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start();
    nodes = RedisClusterServers.start();
  }

  @AfterAll
  static void stopRedis() throws Exception {
    if (redis != null) {
      redis.close();
    }
    if (nodes != null) {
      nodes.close();
    }
  }

  @AfterEach
  void stop() {
    threads.shutdownNow();
    services.forEach(RedisTokenService::close);
  }

  /** 10 calls a minute and 25 an hour for each key, shared by every instance. */
  private static PerValueRule quota(String flowId) {
    return PerValueRule.qps("api", 0, 10).withPeriod(Duration.ofMinutes(1))
        .withQuota(25, Duration.ofHours(1))
        .withCluster(ClusterMode.global(flowId));
  }

  private GuardEngine engine(RedisTokenService.Builder builder, PerValueRule rule)
      throws InterruptedException {
    RedisTokenService service = builder.clock(clock).windowClock(clock)
        .requestTimeout(Duration.ofSeconds(5)) // counts decisions, never timeouts
        .build();
    services.add(service);
    FlowRule probe = FlowRule.qps("probe", 1_000_000).withCluster(ClusterMode.global("probe"));
    assertThat(TokenRequests.firstAnswer(service, probe).status())
        .as("connected within 10 s").isEqualTo(TokenService.Result.Status.OK);
    GuardEngine engine = GuardEngine.builder().clock(clock).tokenService(service).build();
    engine.apply(engine.ruleSet().withRulesOf("api", List.of(rule)));
    return engine;
  }

  private static int calls(GuardEngine engine, String key, int attempts) {
    int admitted = 0;
    for (int i = 0; i < attempts; i++) {
      try (Entry ignored = engine.resource("api").enter(key)) {
        admitted++;
      } catch (RefusedException.PerValue refused) {
        // over the key's quota
      }
    }
    return admitted;
  }

  /**
   * Four simulated minutes: each minute, every engine calls each key 8 times on its own thread,
   * all at once; returns the admitted calls per key per minute.
   */
  private Map<String, List<Integer>> minutes(List<GuardEngine> engines, int count)
      throws Exception {
    Map<String, List<Integer>> admitted = new HashMap<>();
    for (int minute = 0; minute < count; minute++) {
      Map<String, List<Future<Integer>>> results = new HashMap<>();
      for (GuardEngine engine : engines) {
        for (String key : KEYS) {
          results.computeIfAbsent(key, k -> new ArrayList<>())
              .add(threads.submit(() -> calls(engine, key, 8)));
        }
      }
      for (Map.Entry<String, List<Future<Integer>>> key : results.entrySet()) {
        int total = 0;
        for (Future<Integer> result : key.getValue()) {
          total += result.get(30, TimeUnit.SECONDS);
        }
        admitted.computeIfAbsent(key.getKey(), k -> new ArrayList<>()).add(total);
      }
      clock.advance(Duration.ofMinutes(1).plusMillis(1));
    }
    return admitted;
  }

  private void quotasAreExactAcrossInstances(RedisTokenService.Builder... builders)
      throws Exception {
    PerValueRule rule = quota("api-keys");
    List<GuardEngine> engines = new ArrayList<>();
    for (RedisTokenService.Builder builder : builders) {
      engines.add(engine(builder, rule));
    }

    Map<String, List<Integer>> perMinute = minutes(engines, 4); // 24 attempts a minute per key

    for (String key : KEYS) {
      assertThat(perMinute.get(key)).as(key).containsExactly(10, 10, 5, 0);
    }
    RefusedException.PerValue refused = refusal(engines.get(0), "alice");
    Duration retry = refused.retryAfter().orElseThrow();
    assertThat(retry).as("the hour's quota refills 1 h + 1 ms after the first call")
        .isEqualTo(Duration.ofHours(1).plusMillis(1).minus(Duration.ofMinutes(4).plusMillis(4)));
    clock.advance(retry);
    assertThat(calls(engines.get(1), "alice", 30)).isEqualTo(10);
  }

  private static RefusedException.PerValue refusal(GuardEngine engine, String key) {
    try (Entry ignored = engine.resource("api").enter(key)) {
      throw new AssertionError("admitted");
    } catch (RefusedException.PerValue refused) {
      return refused;
    }
  }

  @Test
  void perKeyQuotas_areExactAcrossThreeEngines_onOneServer() throws Exception {
    quotasAreExactAcrossInstances(
        RedisTokenService.builder(redis.uri(), "quota-a"),
        RedisTokenService.builder(redis.uri(), "quota-a"),
        RedisTokenService.builder(redis.uri(), "quota-a").lease(8)); // per-value stays exact
  }

  @Test
  void perKeyQuotas_areExactAcrossThreeEngines_onRedisCluster() throws Exception {
    quotasAreExactAcrossInstances(
        RedisTokenService.builder(nodes.seed(), "quota-c").cluster(),
        RedisTokenService.builder(nodes.seed(), "quota-c").cluster(),
        RedisTokenService.builder(nodes.seed(), "quota-c").cluster());
  }

  @Test
  void aFloodOfDistinctValues_keepsAtMostMaxValuesInRedis_andTheKeysExpire() throws Exception {
    PerValueRule rule = quota("flood").withMaxValues(100);
    GuardEngine engine = engine(RedisTokenService.builder(redis.uri(), "flood"), rule);
    for (int i = 0; i < 1_000; i++) {
      assertThat(calls(engine, "key-" + i, 1)).isEqualTo(1);
    }
    assertThat(calls(engine, "x".repeat(10_000), 1)).as("a long value is hashed").isEqualTo(1);

    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      RedisCommands<String, String> redisCommands = connection.sync();
      String values = "guard:{flood:flood}:pv";
      String refills = "guard:{flood:flood}:pr";
      assertThat(redisCommands.hlen(values)).isEqualTo(100);
      assertThat(redisCommands.zcard(refills)).isEqualTo(100);
      assertThat(redisCommands.hkeys(values))
          .allSatisfy(field -> assertThat(field).hasSizeLessThanOrEqualTo(64));
      assertThat(redisCommands.pttl(values)).as("expires when the hour's quota is full again")
          .isBetween(1L, Duration.ofHours(1).toMillis() + 2);

      clock.advance(Duration.ofHours(1).plusMillis(2)); // every value's buckets are full again
      for (int i = 0; i < 25; i++) {
        calls(engine, "late-" + i, 1);
      }
      assertThat(redisCommands.hlen(values)).as("each call drops up to 4 values full again")
          .isEqualTo(100 - 4 * 25 + 25);
    } finally {
      client.shutdown();
    }
  }

  @Test
  void whenRedisIsAway_eachInstanceChecksTheKeysLocally() throws Exception {
    RedisServer own = RedisServer.start();
    PerValueRule rule = quota("away");
    GuardEngine a = engine(RedisTokenService.builder(own.uri(), "away")
        .backOff(1, Duration.ofMinutes(10)), rule);
    GuardEngine b = engine(RedisTokenService.builder(own.uri(), "away")
        .backOff(1, Duration.ofMinutes(10)), rule);
    assertThat(calls(a, "alice", 6) + calls(b, "alice", 6)).as("shared").isEqualTo(10);
    own.close();

    assertThat(calls(a, "alice", 15)).as("a's own limit").isEqualTo(10);
    assertThat(calls(b, "alice", 15)).as("b's own limit").isEqualTo(10);
  }
}
