package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TimeSource;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisSentinelServers;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: Redis Sentinel ({@code redis-sentinel://host:port#master}), against a real master,
 * replica and sentinel on loopback. guard decides a shared limit through the master the sentinel
 * names; when that master is killed, the sentinel promotes the replica and guard, connecting again
 * on its own schedule (docs/BEHAVIOUR.md, "On Redis"), asks the sentinel again and decides through
 * the new master. The time from the kill to the first decision made through Redis again is printed
 * (docs/CLUSTER.md, "Redis Sentinel", reports it); the test asserts only that it comes, within a
 * generous bound.
 */
@Tag("process")
class Issue39RedisSentinelTest {

  /** 100 permits in a 10 s window shared through Redis. */
  private static final FlowRule SHARED = FlowRule.qps("orders", 10).withCluster(
      ClusterMode.global("sentinel-orders").withWindow(10, Duration.ofSeconds(10)));
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private static boolean throughRedis(RedisTokenService tokens) {
    return tokens.requestToken(SHARED, 1, false).status() != TokenService.Result.Status.FAILED;
  }

  @Test
  void masterKilled_theSentinelPromotesTheReplica_andSharedLimitsAreDecidedThroughRedisAgain()
      throws Exception {
    try (RedisSentinelServers group = RedisSentinelServers.start();
        RedisConnection connection = RedisConnection.of(group.uri());
        RedisTokenService tokens = RedisTokenService.builder(connection, "sentinel").build()) {
      assertThat(connection.awaitConnected(PATIENCE)).as("connected to the master").isTrue();
      Await.until("a decision through the master", PATIENCE, () -> throughRedis(tokens));
      assertThat(connection.toString()).contains("master 'guard' of sentinels 127.0.0.1:"
          + group.sentinelPort());

      TimeSource time = GuardEngine.systemTime();
      int killed = group.killMaster();
      long killedAt = time.nanoTime();
      Await.until("a shared-limit decision through Redis after the master was killed (sentinel "
          + "log: " + group.sentinelLog() + ")", PATIENCE, () -> throughRedis(tokens));
      long recovered = Duration.ofNanos(time.nanoTime() - killedAt).toMillis();

      System.out.println("Issue39RedisSentinelTest: shared limits decided through Redis again "
          + recovered + " ms after the master was killed (down-after "
          + RedisSentinelServers.DOWN_AFTER_MILLIS + " ms, guard's retry interval 1 s)");
      assertThat(group.masterPort()).as("the sentinel names the promoted replica")
          .isNotEqualTo(killed);
    }
  }
}
