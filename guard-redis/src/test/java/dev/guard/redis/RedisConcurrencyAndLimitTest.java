package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
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
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Concurrency tokens and the namespace request limit against a real {@code redis-server}, as the
 * in-memory token service specifies them. One server for the class; each test has its namespace.
 */
@Tag("process")
class RedisConcurrencyAndLimitTest {

  private static RedisServer redis;
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() throws Exception {
    redis.close();
  }

  @AfterEach
  void closeServices() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private RedisTokenService service(RedisTokenService.Builder builder) throws Exception {
    RedisTokenService service = builder.requestTimeout(Duration.ofSeconds(1)).build();
    open.add(service);
    // wait for the background connection on a flow id of its own
    FlowRule warm = FlowRule.qps("warm", 1000).withCluster(ClusterMode.global("warm"));
    assertThat(within(Duration.ofSeconds(10), () -> service.requestToken(warm, 1, false)).status())
        .isEqualTo(TokenService.Result.Status.OK);
    return service;
  }

  /** Asks until the answer is not FAILED/BLOCKED, for at most {@code limit}. */
  private static TokenService.Result within(Duration limit, Supplier<TokenService.Result> ask) {
    return Await.value("an OK answer from the token service", limit, ask::get,
        result -> result.status() == TokenService.Result.Status.OK);
  }

  @Test
  void concurrencyTokens_areHeldReleasedAndReturnedOnClose() throws Exception {
    RedisTokenService a = service(RedisTokenService.builder(redis.uri(), "held"));
    RedisTokenService b = service(RedisTokenService.builder(redis.uri(), "held"));
    FlowRule rule = FlowRule.qps("R", 2).withCluster(ClusterMode.global("orders"));

    TokenService.Result first = a.acquireConcurrency(rule, 1);
    TokenService.Result second = b.acquireConcurrency(rule, 1);
    assertThat(first.status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(second.status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(a.acquireConcurrency(rule, 1)).isEqualTo(TokenService.Result.REFUSED);

    assertThat(a.releaseConcurrency(first.tokenId())).isTrue();
    assertThat(a.releaseConcurrency(first.tokenId())).isFalse();
    assertThat(a.releaseConcurrency(second.tokenId())).as("b's token, not a's").isFalse();
    assertThat(a.acquireConcurrency(rule, 1).status()).isEqualTo(TokenService.Result.Status.OK);

    b.close(); // a closed holder gives its tokens back
    assertThat(a.acquireConcurrency(rule, 1).status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(a.acquireConcurrency(rule, 1)).isEqualTo(TokenService.Result.REFUSED);
  }

  @Test
  void concurrencyTokens_ofADeadHolder_expireWithTheirLease() throws Exception {
    RedisTokenService a = service(RedisTokenService.builder(redis.uri(), "leases"));
    FlowRule rule = FlowRule.qps("R", 2).withCluster(
        ClusterMode.global("orders").withLeaseTime(Duration.ofMillis(300)));
    assertThat(a.acquireConcurrency(rule, 2).status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(a.acquireConcurrency(rule, 1)).isEqualTo(TokenService.Result.REFUSED);
    // never released: the lease ends on the server's clock
    assertThat(within(Duration.ofSeconds(5), () -> a.acquireConcurrency(rule, 2)).status())
        .isEqualTo(TokenService.Result.Status.OK);
  }

  @Test
  void concurrencyTokens_perInstance_multiplyByLiveInstances() throws Exception {
    RedisTokenService a = service(RedisTokenService.builder(redis.uri(), "each"));
    RedisTokenService b = service(RedisTokenService.builder(redis.uri(), "each"));
    FlowRule rule = FlowRule.qps("R", 1).withCluster(ClusterMode.perInstance("orders"));
    assertThat(a.acquireConcurrency(rule, 1).status()).isEqualTo(TokenService.Result.Status.OK);
    assertThat(a.acquireConcurrency(rule, 1)).as("a alone: 1").isEqualTo(TokenService.Result.REFUSED);
    assertThat(b.acquireConcurrency(rule, 1).status()).as("a and b: 2")
        .isEqualTo(TokenService.Result.Status.OK);
    assertThat(b.acquireConcurrency(rule, 1)).isEqualTo(TokenService.Result.REFUSED);
  }

  @Test
  void namespaceRequestLimit_answersTooManyRequests_andTheEngineFallsBack() throws Exception {
    RedisTokenService a = service(
        RedisTokenService.builder(redis.uri(), "busy").maxRequestsPerSecond(4)); // 1 warm-up
    RedisTokenService other = service(RedisTokenService.builder(redis.uri(), "calm"));
    FlowRule rule = FlowRule.qps("R", 100).withCluster(ClusterMode.global("orders"));
    for (int i = 0; i < 3; i++) {
      assertThat(a.requestToken(rule, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
    }
    assertThat(a.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.TOO_MANY_REQUESTS);
    assertThat(a.acquireConcurrency(rule, 1)).isEqualTo(TokenService.Result.TOO_MANY_REQUESTS);
    assertThat(other.requestToken(rule, 1, false).status()).as("another namespace")
        .isEqualTo(TokenService.Result.Status.OK);

    // the engine treats the answer as a failure: the local rule (1 per second) decides
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).tokenService(a).build();
    engine.apply(engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1).withCluster(ClusterMode.global("orders")))));
    StringBuilder calls = new StringBuilder();
    for (int i = 0; i < 2; i++) {
      try (Entry ignored = engine.resource("R").enter()) {
        calls.append('P');
      } catch (RefusedException refused) {
        calls.append('B');
      }
    }
    assertThat(calls).hasToString("PB");
    assertThat(a.available()).as("a busy namespace is no outage").isTrue();

    // a second later the namespace is answered again
    assertThat(within(Duration.ofSeconds(5), () -> a.requestToken(rule, 1, false)).status())
        .isEqualTo(TokenService.Result.Status.OK);
  }
}
