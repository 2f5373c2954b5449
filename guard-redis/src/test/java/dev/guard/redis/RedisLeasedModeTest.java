package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Leased mode against a real {@code redis-server}: leases are counted in the shared window when
 * taken, spent locally, and end on the instance's (manual) clock with the bucket they were taken
 * in. The windows are 10 s long (buckets of 1 s), so nothing slides out during a test; an exact
 * instance on the same flow id reads how many permits the window counted.
 */
@Tag("process")
class RedisLeasedModeTest {

  private static RedisServer redis;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final ManualClock clock = new ManualClock();

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

  /** count per second over a 10 s window of 1 s buckets: 10 × count permits per window. */
  private static FlowRule rule(String flowId, double count) {
    return FlowRule.qps("R", count)
        .withCluster(ClusterMode.global(flowId).withWindow(10, Duration.ofSeconds(10)));
  }

  private RedisTokenService service(String namespace, int lease) throws Exception {
    RedisTokenService.Builder builder = RedisTokenService.builder(redis.uri(), namespace)
        .requestTimeout(Duration.ofSeconds(2)) // counts decisions, not timeouts
        .clock(clock);
    RedisTokenService service = (lease > 1 ? builder.lease(lease) : builder).build();
    open.add(service);
    FlowRule warm = rule("warm", 1000);
    Await.until("the service to connect and admit a call of flow 'warm'", Duration.ofSeconds(10),
        () -> service.requestToken(warm, 1, true).status() == TokenService.Result.Status.OK);
    return service;
  }

  /** What the shared window counted so far: the exact instance's request + its remaining. */
  private static long counted(RedisTokenService exact, FlowRule rule, long capacity) {
    TokenService.Result probe = exact.requestToken(rule, 1, false);
    assertThat(probe.status()).isEqualTo(TokenService.Result.Status.OK);
    return capacity - probe.remaining() - 1; // without the probe itself
  }

  @Test
  void lease_growsWhileUsedUp_andSpendsLocally() throws Exception {
    RedisTokenService leased = service("grow", 5);
    RedisTokenService exact = service("grow", 0);
    FlowRule rule = rule("orders", 10); // 100 per window

    assertThat(leased.requestToken(rule, 1, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(99)); // lease of 1
    assertThat(leased.requestToken(rule, 1, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(97)); // lease of 2
    assertThat(leased.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.OK); // local
    assertThat(leased.requestToken(rule, 1, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(93)); // lease of 4
    for (int i = 0; i < 3; i++) {
      assertThat(leased.requestToken(rule, 1, false)).isEqualTo(TokenService.Result.OK);
    }
    assertThat(leased.requestToken(rule, 1, false)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(88)); // capped: 5
    assertThat(counted(exact, rule, 100)).isEqualTo(12); // 8 spent, 4 held by the lease
  }

  @Test
  void lease_endsWithItsBucketOnTheInstanceClock_andItsRestIsLost() throws Exception {
    RedisTokenService leased = service("end", 5);
    RedisTokenService exact = service("end", 0);
    FlowRule rule = rule("orders", 10);
    leased.requestToken(rule, 1, false); // lease of 1
    leased.requestToken(rule, 1, false); // lease of 2, 1 left
    assertThat(counted(exact, rule, 100)).isEqualTo(3);

    clock.advance(Duration.ofSeconds(1)); // a bucket: whatever was left of it, the lease ended
    assertThat(leased.requestToken(rule, 1, false).status()).as("asks Redis again")
        .isEqualTo(TokenService.Result.Status.OK);
    // the lease ended with 1 left (lost): the next lease halves to 1 permit
    assertThat(counted(exact, rule, 100)).isEqualTo(3 + 1 + 1);
  }

  @Test
  void prioritized_alwaysAsksRedis() throws Exception {
    RedisTokenService leased = service("prio", 5);
    FlowRule rule = rule("orders", 10);
    leased.requestToken(rule, 1, false);
    leased.requestToken(rule, 1, false); // a lease with 1 left
    assertThat(leased.requestToken(rule, 1, true)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(96));
  }

  /**
   * The bound: no window admits more than its capacity (the overshoot over exact mode is 0), and
   * at most instances × (batch − 1) permits are counted but never spent.
   */
  @Test
  void fourLeasedInstancesRacing_neverAdmitMoreThanTheWindow() throws Exception {
    int instances = 4;
    int batch = 5;
    FlowRule rule = rule("orders", 20); // 200 per window
    List<RedisTokenService> services = new ArrayList<>();
    for (int i = 0; i < instances; i++) {
      services.add(service("race", batch));
    }
    RedisTokenService exact = service("race", 0);
    TokenRequests.Race race = TokenRequests.race(services, rule, 100);

    assertThat(race.failed()).as("failed requests").isZero();
    assertThat(exact.requestToken(rule, 1, false)).as("the window is full")
        .isEqualTo(TokenService.Result.REFUSED);
    assertThat(race.ok()).as("admitted of 400 calls against a window of 200")
        .isBetween(200 - instances * (batch - 1), 200);
  }
}
