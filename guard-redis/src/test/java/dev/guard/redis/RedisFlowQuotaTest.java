package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
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
import java.util.List;
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
 * The quotas of a cluster flow rule on a real {@code redis-server}, one server and a 3-node Redis
 * Cluster: several engines in one JVM, each with its own token service, share the service's
 * quotas exactly (the per-value script on one constant field). The windows run on one {@link
 * ManualClock} shared by the instances ({@code windowClock}).
 */
@Tag("process")
class RedisFlowQuotaTest {

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

  /** 10 calls a minute and 25 an hour for the whole service, besides a high rate per second. */
  private static FlowRule quota(String flowId) {
    return FlowRule.qps("api", 1_000_000).withQuota(10, Duration.ofMinutes(1))
        .withQuota(25, Duration.ofHours(1)).withCluster(ClusterMode.global(flowId));
  }

  private GuardEngine engine(RedisTokenService.Builder builder, FlowRule rule)
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

  private static int calls(GuardEngine engine, int attempts) {
    int admitted = 0;
    for (int i = 0; i < attempts; i++) {
      try (Entry ignored = engine.resource("api").enter()) {
        admitted++;
      } catch (RefusedException.Flow refused) {
        // over a quota
      }
    }
    return admitted;
  }

  private void quotasAreExactAcrossInstances(RedisTokenService.Builder... builders)
      throws Exception {
    FlowRule rule = quota("partner-api");
    List<GuardEngine> engines = new ArrayList<>();
    for (RedisTokenService.Builder builder : builders) {
      engines.add(engine(builder, rule));
    }
    List<Integer> perMinute = new ArrayList<>();
    for (int minute = 0; minute < 4; minute++) {
      List<Future<Integer>> results = new ArrayList<>();
      for (GuardEngine engine : engines) {
        results.add(threads.submit(() -> calls(engine, 8)));
      }
      int total = 0;
      for (Future<Integer> result : results) {
        total += result.get(30, TimeUnit.SECONDS);
      }
      perMinute.add(total);
      clock.advance(Duration.ofMinutes(1).plusMillis(1));
    }

    assertThat(perMinute).as("24 attempts a minute").containsExactly(10, 10, 5, 0);
    RefusedException refused;
    try (Entry ignored = engines.get(0).resource("api").enter()) {
      throw new AssertionError("admitted");
    } catch (RefusedException.Flow flow) {
      refused = flow;
    }
    Duration retry = refused.retryAfter().orElseThrow();
    assertThat(retry).as("the hour's quota refills 1 h + 1 ms after the first call")
        .isEqualTo(Duration.ofHours(1).plusMillis(1).minus(Duration.ofMinutes(4).plusMillis(4)));
    clock.advance(retry);
    assertThat(calls(engines.get(1), 30)).isEqualTo(10);
  }

  @Test
  void flowQuotas_areExactAcrossThreeEngines_onOneServer_leasedToo() throws Exception {
    quotasAreExactAcrossInstances(
        RedisTokenService.builder(redis.uri(), "flow-quota-a"),
        RedisTokenService.builder(redis.uri(), "flow-quota-a"),
        RedisTokenService.builder(redis.uri(), "flow-quota-a").lease(8));
  }

  @Test
  void flowQuotas_areExactAcrossThreeEngines_onRedisCluster() throws Exception {
    quotasAreExactAcrossInstances(
        RedisTokenService.builder(nodes.seed(), "flow-quota-c").cluster(),
        RedisTokenService.builder(nodes.seed(), "flow-quota-c").cluster(),
        RedisTokenService.builder(nodes.seed(), "flow-quota-c").cluster());
  }

  @Test
  void aFlowIdsQuotas_areOneFieldInTwoKeys_thatExpireWhenEveryQuotaIsFullAgain()
      throws Exception {
    GuardEngine engine = engine(RedisTokenService.builder(redis.uri(), "memory"),
        quota("memory"));
    assertThat(calls(engine, 3)).isEqualTo(3);

    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      RedisCommands<String, String> commands = connection.sync();
      assertThat(commands.hlen("guard:{memory:memory}:qv")).isEqualTo(1);
      assertThat(commands.zcard("guard:{memory:memory}:qr")).isEqualTo(1);
      assertThat(commands.pttl("guard:{memory:memory}:qv"))
          .as("expires when the hour's quota is full again")
          .isBetween(1L, Duration.ofHours(1).toMillis() + 2);
    } finally {
      client.shutdown();
    }
  }

  @Test
  void whenRedisIsAway_eachInstanceChecksItsOwnQuotas() throws Exception {
    RedisServer own = RedisServer.start();
    FlowRule rule = quota("away");
    GuardEngine a = engine(RedisTokenService.builder(own.uri(), "away")
        .backOff(1, Duration.ofMinutes(10)), rule);
    GuardEngine b = engine(RedisTokenService.builder(own.uri(), "away")
        .backOff(1, Duration.ofMinutes(10)), rule);
    assertThat(calls(a, 6) + calls(b, 6)).as("shared").isEqualTo(10);
    own.close();

    assertThat(calls(a, 15)).as("a's own quota").isEqualTo(10);
    assertThat(calls(b, 15)).as("b's own quota").isEqualTo(10);
  }
}
