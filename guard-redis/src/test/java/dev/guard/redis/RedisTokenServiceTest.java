package dev.guard.redis;

import static dev.guard.redis.TokenRequests.firstAnswer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Redis token service against a real {@code redis-server} started for each test. The shared
 * windows are 10 s long so that a slow machine does not move a pass out of the window mid-test;
 * the engines run on a manual clock, so their local fallback is exact.
 */
@Tag("process")
class RedisTokenServiceTest {

  private RedisServer redis;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final ManualClock clock = new ManualClock();

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServer.start();
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    redis.close();
  }

  private RedisTokenService service(String instance) {
    RedisTokenService service = RedisTokenService.builder(redis.uri(), "shop")
        .instanceId(instance)
        // counts decisions, not timeouts: a request that times out on a busy machine may still
        // have been counted by Redis
        .requestTimeout(Duration.ofSeconds(2))
        .backOff(2, Duration.ofMillis(200))
        .build();
    open.add(service);
    return service;
  }

  private GuardEngine engine(RedisTokenService service) {
    return GuardEngine.builder().clock(clock).tokenService(service).build();
  }

  /** count per second over a 10 s window: 10 × count permits per window. */
  private static FlowRule rule(double count, ClusterMode mode) {
    return FlowRule.qps("orders", count).withCluster(mode.withWindow(10, Duration.ofSeconds(10)));
  }

  private static String calls(GuardEngine engine, int n) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      try (Entry ignored = engine.resource("orders").enter()) {
        out.append('P');
      } catch (RefusedException refused) {
        out.append('B');
      }
    }
    return out.toString();
  }

  @Test
  void twoEngines_shareOneGlobalLimit() throws Exception {
    FlowRule rule = rule(1, ClusterMode.global("orders")); // 10 per window in the cluster
    RedisTokenService a = service("a");
    RedisTokenService b = service("b");
    assertThat(firstAnswer(a, rule)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(9));
    assertThat(firstAnswer(b, rule)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(8));
    GuardEngine onA = engine(a);
    GuardEngine onB = engine(b);
    onA.apply(onA.ruleSet().withRulesOf("orders", List.of(rule)));
    onB.apply(onB.ruleSet().withRulesOf("orders", List.of(rule)));

    assertThat(calls(onA, 4)).isEqualTo("PPPP");
    assertThat(calls(onB, 5)).isEqualTo("PPPPB");
    assertThat(calls(onA, 1)).isEqualTo("B");
  }

  @Test
  void fourInstancesRacing_admitExactlyTheWindowsCapacity() throws Exception {
    FlowRule rule = rule(20, ClusterMode.global("orders")); // 200 per 10 s window
    List<RedisTokenService> services = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      RedisTokenService service = RedisTokenService.builder(redis.uri(), "shop")
          .requestTimeout(Duration.ofSeconds(2)) // this test counts decisions, not timeouts
          .build();
      open.add(service);
      assertThat(firstAnswer(service, rule).status()).isEqualTo(TokenService.Result.Status.OK);
      services.add(service);
    }
    TokenRequests.Race race = TokenRequests.race(services, rule, 100);

    assertThat(race.failed()).as("failed requests").isZero();
    assertThat(4 + race.ok()).as("the four first answers and the race").isEqualTo(200);
  }

  @Test
  void perInstance_countsTheInstancesThatAsk() throws Exception {
    FlowRule rule = rule(1, ClusterMode.perInstance("orders"));
    RedisTokenService a = service("a");
    RedisTokenService b = service("b");
    assertThat(firstAnswer(a, rule)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(9)); // a alone: 10
    assertThat(firstAnswer(b, rule)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(18)); // a and b: 20
    int passed = 2;
    while (a.requestToken(rule, 1, false).status() == TokenService.Result.Status.OK) {
      passed++;
    }
    assertThat(passed).isEqualTo(20);
  }

  @Test
  void prioritized_fullWindow_isBlockedWhenNothingSlidesOut() throws Exception {
    FlowRule rule = rule(1, ClusterMode.global("orders"));
    RedisTokenService a = service("a");
    assertThat(firstAnswer(a, rule).status()).isEqualTo(TokenService.Result.Status.OK);
    while (a.requestToken(rule, 1, false).status() == TokenService.Result.Status.OK) {
      // fill the window
    }
    assertThat(a.requestToken(rule, 1, true)).isEqualTo(TokenService.Result.REFUSED);
  }

  @Test
  void redisKilled_fallsBackToLocal_andResumesAfterRestart() throws Exception {
    FlowRule rule = rule(1, ClusterMode.global("orders")); // local fallback: 1 per second
    List<Boolean> told = new ArrayList<>();
    RedisTokenService a = RedisTokenService.builder(redis.uri(), "shop")
        .requestTimeout(Duration.ofMillis(200))
        .backOff(2, Duration.ofMillis(200))
        .onAvailability(told::add)
        .build();
    open.add(a);
    assertThat(firstAnswer(a, rule)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(9));
    GuardEngine engine = engine(a);
    engine.apply(engine.ruleSet().withRulesOf("orders", List.of(rule)));
    assertThat(calls(engine, 10)).isEqualTo("PPPPPPPPPB");
    clock.advance(Duration.ofSeconds(1)); // the local window forgets the cluster's passes

    redis.kill();
    // the cluster window is full, yet the local rule (1 per second, nothing passed locally) decides
    assertThat(calls(engine, 3)).isEqualTo("PBB");
    // failures count once no reconnection attempt is under way; on a busy machine that attempt
    // can outlast the three calls above, so ask (bounded) until the outage is noticed
    Await.until("the service to notice the killed server", Duration.ofSeconds(15), () -> {
      a.requestToken(rule, 1, false);
      return !a.available();
    });
    assertThat(told).containsExactly(false);

    redis.restart(); // every key lost: the cluster window starts empty
    // the local window is full on the manual clock: a pass (P) means Redis decided
    Await.until("cluster decisions to resume after the restart", Duration.ofSeconds(15),
        () -> calls(engine, 1).equals("P"));
    assertThat(a.available()).isTrue();
    assertThat(told).containsExactly(false, true);
    assertThat(a.requestToken(rule, 1, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(8));
  }

  @Test
  void noServer_failsQuicklyWithoutThrowing() throws Exception {
    redis.kill();
    RedisTokenService a = service("a");
    FlowRule rule = rule(1, ClusterMode.global("orders").withFallbackToLocal(false));
    GuardEngine engine = engine(a);
    engine.apply(engine.ruleSet().withRulesOf("orders", List.of(rule)));
    assertThat(a.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.FAILED);
    assertThat(calls(engine, 30)).isEqualTo("P".repeat(30)); // failures pass by the rule's choice
  }

  @Test
  void grantsOfCallsABreakerRefuses_areGivenBackToTheSharedWindow() throws Exception {
    FlowRule rule = rule(1, ClusterMode.global("orders")); // 10 per window in the cluster
    RedisTokenService a = service("a");
    RedisTokenService b = service("b");
    assertThat(firstAnswer(a, rule).status()).isEqualTo(TokenService.Result.Status.OK);
    GuardEngine engine = engine(a);
    engine.apply(engine.ruleSet().withRulesOf("orders", List.of(rule, CircuitBreakerRule.errorCount("orders", 1))));
    engine.breakers("orders").forEach(breaker -> breaker.forceOpen());
    assertThat(calls(engine, 20)).isEqualTo("B".repeat(20)); // each granted, then refused
    assertThat(firstAnswer(b, rule)).usingRecursiveComparison().ignoringFields("tokenId")
        .as("only the first answer is counted").isEqualTo(TokenService.Result.ok(8));
  }

  @Test
  void clusterConcurrency_oneExportAtATimeOverTwoEngines_givenBackAtExit() throws Exception {
    FlowRule one = FlowRule.concurrency("orders", 1).withCluster(ClusterMode.global("exports"));
    RedisTokenService a = service("a");
    RedisTokenService b = service("b");
    firstAnswer(a, rule(1, ClusterMode.global("warm-up"))); // both connected
    firstAnswer(b, rule(1, ClusterMode.global("warm-up")));
    GuardEngine onA = engine(a);
    GuardEngine onB = engine(b);
    onA.apply(onA.ruleSet().withRulesOf("orders", List.of(one)));
    onB.apply(onB.ruleSet().withRulesOf("orders", List.of(one)));
    try (Entry running = onA.resource("orders").enter()) {
      assertThat(calls(onB, 3)).as("the cluster's one token is held on A").isEqualTo("BBB");
    }
    assertThat(calls(onB, 3)).as("given back at each exit").isEqualTo("PPP");
  }
}
