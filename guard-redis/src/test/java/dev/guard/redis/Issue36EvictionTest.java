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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, finding 6: a Redis that evicts keys (here {@code maxmemory 4mb} with {@code
 * allkeys-lru}, a real {@code redis-server}) pushes guard's keys out when other keys fill it.
 */
@Tag("process")
class Issue36EvictionTest {

  private static final List<String> EVICTING =
      List.of("--maxmemory", "4mb", "--maxmemory-policy", "allkeys-lru");

  private static RedisServer redis;

  private final ManualClock clock = ManualClock.startingAt(Duration.ofDays(2).toNanos());
  private final List<RedisTokenService> services = new ArrayList<>();

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start(EVICTING);
  }

  @AfterAll
  static void stopRedis() throws Exception {
    if (redis != null) {
      redis.close();
    }
  }

  @AfterEach
  void stop() {
    services.forEach(RedisTokenService::close);
  }

  private RedisTokenService service(String uri, String namespace) throws InterruptedException {
    RedisTokenService service = RedisTokenService.builder(uri, namespace).clock(clock)
        .windowClock(clock).requestTimeout(Duration.ofSeconds(5)).build();
    services.add(service);
    FlowRule probe = FlowRule.qps("probe", 1_000_000).withCluster(ClusterMode.global("probe"));
    assertThat(TokenRequests.firstAnswer(service, probe).status())
        .as("connected within 30 s").isEqualTo(TokenService.Result.Status.OK);
    return service;
  }

  private GuardEngine engine(RedisTokenService service, FlowRule rule) {
    GuardEngine engine = GuardEngine.builder().clock(clock).tokenService(service).build();
    engine.apply(engine.ruleSet().withRulesOf("api", List.of(rule)));
    return engine;
  }

  private static int call(GuardEngine engine) {
    try (Entry ignored = engine.resource("api").enter()) {
      return 1;
    } catch (RefusedException.Flow refused) {
      return 0;
    }
  }

  /** Writes other keys until Redis evicted every key given (at most 64 MB of them). */
  private static void pushOut(String uri, String... keys) {
    RedisClient client = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      RedisCommands<String, String> commands = connection.sync();
      String filler = "x".repeat(16 * 1024);
      long written = 0;
      while (commands.exists(keys) > 0) {
        assertThat(written).as("Redis evicted %s within 4096 other keys", List.of(keys))
            .isLessThan(4096);
        commands.set("other:" + written++, filler);
      }
    } finally {
      client.shutdown();
    }
  }

  /**
   * Two engines share {@code qps(1000).quota(100, 1 min).clusterWide()}; six times in the minute
   * they make 100 calls between them (alternating), and after each round other keys push the
   * quota's keys out of Redis.
   */
  @Test
  void aQuotaRedisEvictsSixTimesInAMinute_admitsTheQuotaAndOneCall_notSixQuotas()
      throws Exception {
    FlowRule rule = FlowRule.qps("api", 1000).withQuota(100, Duration.ofMinutes(1))
        .withCluster(ClusterMode.global("partner"));
    GuardEngine a = engine(service(redis.uri(), "evicted"), rule);
    GuardEngine b = engine(service(redis.uri(), "evicted"), rule);
    int admitted = 0;
    for (int round = 0; round < 6; round++) {
      for (int i = 0; i < 50; i++) {
        admitted += call(a) + call(b);
      }
      pushOut(redis.uri(), "guard:{evicted:partner}:qv", "guard:{evicted:partner}:qr");
      clock.advance(Duration.ofSeconds(9));
    }
    System.out.println("Issue36 eviction: admitted " + admitted + " in the minute, quota 100");
    assertThat(admitted).as("calls admitted in the minute against a quota of 100 (before: 600)")
        .isEqualTo(101);

    Eviction seen = services.get(0).eviction();
    assertThat(seen.risk()).isEqualTo(Eviction.Risk.MAY_EVICT);
    assertThat(seen.evictedKeys()).as("the server's evicted_keys").isPositive();
    assertThat(seen.restoredStates()).as("rounds that found the quota gone, on this instance")
        .isEqualTo(5);
  }

  @Test
  void eviction_onAllkeysLru_saysRedisMayEvictGuardsKeys() throws Exception {
    Eviction eviction = service(redis.uri(), "policy").eviction();

    assertThat(eviction.risk()).isEqualTo(Eviction.Risk.MAY_EVICT);
    assertThat(eviction.policy()).isEqualTo("allkeys-lru");
    assertThat(eviction.maxmemoryBytes()).isEqualTo(4L * 1024 * 1024);
    assertThat(eviction.evictedKeys()).isNotNegative();
    assertThat(eviction.detail()).contains("may evict", "allkeys-lru", "noeviction");
  }

  @Test
  void eviction_onADefaultServer_isNone() throws Exception {
    try (RedisServer safe = RedisServer.start()) {
      Eviction eviction = service(safe.uri(), "safe").eviction();

      assertThat(eviction.risk()).isEqualTo(Eviction.Risk.NONE);
      assertThat(eviction.policy()).isEqualTo("noeviction");
      assertThat(eviction.maxmemoryBytes()).isZero();
      assertThat(eviction.evictedKeys()).isZero();
    }
  }

  @Test
  void eviction_withConfigDisabled_isUnknown_andTheServiceStillDecides() throws Exception {
    try (RedisServer hidden = RedisServer.start(List.of("--rename-command", "CONFIG", ""))) {
      RedisTokenService service = service(hidden.uri(), "hidden");

      Eviction eviction = service.eviction();

      assertThat(eviction.risk()).isEqualTo(Eviction.Risk.UNKNOWN);
      assertThat(eviction.policy()).isEqualTo("unknown");
      assertThat(eviction.maxmemoryBytes()).isEqualTo(-1);
      assertThat(eviction.evictedKeys()).as("INFO still answers").isZero();
      assertThat(eviction.detail()).contains("cannot read");
      FlowRule rule = FlowRule.qps("api", 5).withCluster(ClusterMode.global("hidden"));
      assertThat(service.requestToken(rule, 1, false).status())
          .isEqualTo(TokenService.Result.Status.OK);
    }
  }

  @Test
  void eviction_beforeTheConnection_isUnknown() {
    RedisTokenService never = RedisTokenService.builder("redis://127.0.0.1:1", "never").build();
    services.add(never);

    assertThat(never.eviction().risk()).isEqualTo(Eviction.Risk.UNKNOWN);
  }

  @Test
  void volatilePolicies_mayEvictGuardsKeys_forEveryKeyGuardWritesCarriesATtl() throws Exception {
    try (RedisServer volatileLru = RedisServer.start(
        List.of("--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru"))) {
      RedisTokenService service = service(volatileLru.uri(), "ttl");
      GuardEngine engine = engine(service, FlowRule.qps("api", 1000)
          .withQuota(100, Duration.ofMinutes(1)).withCluster(ClusterMode.global("ttl")));
      assertThat(call(engine)).isEqualTo(1);

      assertThat(service.eviction().risk()).isEqualTo(Eviction.Risk.MAY_EVICT);
      RedisClient client = RedisClient.create(volatileLru.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        RedisCommands<String, String> commands = connection.sync();
        List<String> keys = commands.keys("guard:*");
        assertThat(keys).isNotEmpty();
        for (String key : keys) {
          assertThat(commands.pttl(key)).as("TTL of %s", key).isPositive();
        }
      } finally {
        client.shutdown();
      }
    }
  }

  @Test
  void aPolicyThatEvicts_isLoggedOncePerConnection_andItsChangeToo() throws Exception {
    Logger logger = Logger.getLogger("dev.guard.redis");
    BlockingQueue<LogRecord> lines = new LinkedBlockingQueue<>();
    RedisServer own = RedisServer.start(EVICTING);
    String address = own.uri().substring("redis://".length());
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord line) {
        if (line.getMessage().contains(address)) { // this test's server only
          lines.add(line);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(handler);
    try (own) {
      RedisTokenService service = service(own.uri(), "logged");
      LogRecord first = lines.poll(10, TimeUnit.SECONDS);
      assertThat(first).as("a warning at connection").isNotNull();
      assertThat(first.getLevel()).isEqualTo(Level.WARNING);
      assertThat(first.getMessage()).contains("allkeys-lru", "may evict");

      service.eviction();
      service.eviction();
      assertThat(lines).as("nothing changed: nothing more").isEmpty();

      RedisClient client = RedisClient.create(own.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        connection.sync().configSet("maxmemory-policy", "noeviction");
      } finally {
        client.shutdown();
      }
      assertThat(service.eviction().risk()).isEqualTo(Eviction.Risk.NONE);
      assertThat(lines).singleElement().satisfies(line -> {
        assertThat(line.getLevel()).isEqualTo(Level.INFO);
        assertThat(line.getMessage()).contains("does not evict");
      });
    } finally {
      logger.removeHandler(handler);
    }
  }

  @Test
  void theFleetView_saysWhetherRedisMayEvictGuardsKeys() throws Exception {
    RedisTokenService service = service(redis.uri(), "fleet-evicts");
    GuardEngine engine = GuardEngine.builder().clock(clock).tokenService(service).build();
    try (RedisFleet fleet = RedisFleet.builder(engine, redis.uri(), "fleet-evicts").build()) {
      assertThat(fleet.awaitConnected(Duration.ofSeconds(10))).isTrue();

      RedisFleet.View view = fleet.view();

      assertThat(view.eviction().risk()).isEqualTo(Eviction.Risk.MAY_EVICT);
      assertThat(view.eviction().policy()).isEqualTo("allkeys-lru");
    }
  }

  @Test
  void eviction_onRedisCluster_readsEveryPrimary_andTheRiskiestDecides() throws Exception {
    try (RedisClusterServers nodes = RedisClusterServers.start()) {
      RedisTokenService service = RedisTokenService.builder(nodes.seed(), "nodes").cluster()
          .clock(clock).windowClock(clock).requestTimeout(Duration.ofSeconds(5)).build();
      services.add(service);
      assertThat(service.awaitConnected(Duration.ofSeconds(30))).isTrue();
      assertThat(service.eviction().risk()).isEqualTo(Eviction.Risk.NONE);

      assertThat(nodes.cli(nodes.port(2), "CONFIG", "SET", "maxmemory", "64mb")).isEqualTo("OK");
      assertThat(nodes.cli(nodes.port(2), "CONFIG", "SET", "maxmemory-policy", "volatile-ttl"))
          .isEqualTo("OK");
      Eviction eviction = service.eviction();

      assertThat(eviction.risk()).isEqualTo(Eviction.Risk.MAY_EVICT);
      assertThat(eviction.policy()).isEqualTo("noeviction,volatile-ttl");
      assertThat(eviction.maxmemoryBytes()).isEqualTo(64L * 1024 * 1024);
      assertThat(eviction.evictedKeys()).isZero();
    }
  }

  @Test
  void whatRedisAnswers_isReadAsData() {
    assertThat(EvictionWatch.policy("ALLKEYS-LRU ")).isEqualTo("allkeys-lru");
    assertThat(EvictionWatch.policy("allkeys-everything")).isNull();
    assertThat(EvictionWatch.policy("")).isNull();
    assertThat(EvictionWatch.policy(null)).isNull();
    assertThat(EvictionWatch.number("4194304")).isEqualTo(4194304);
    assertThat(EvictionWatch.number("-1")).isEqualTo(-1);
    assertThat(EvictionWatch.number("4mb")).isEqualTo(-1);
    assertThat(EvictionWatch.number("9".repeat(40))).isEqualTo(-1);
    assertThat(EvictionWatch.evictedKeys("# Stats\r\nevicted_keys:12\r\nexpired_keys:3\r\n"))
        .isEqualTo(12);
    assertThat(EvictionWatch.evictedKeys("evicted_keys:lots\r\n")).isEqualTo(-1);
    assertThat(EvictionWatch.evictedKeys("")).isEqualTo(-1);
    assertThat(EvictionWatch.evictedKeys(null)).isEqualTo(-1);
    assertThat(EvictionWatch.read(List.of()).risk()).isEqualTo(Eviction.Risk.UNKNOWN);
  }
}
