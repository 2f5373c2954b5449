package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "the rolling-deploy rule", on a real server: two old and two new instances
 * race for one flow id whose rule differs between the versions, second after simulated second.
 * Every pass is counted in both versions' windows and each version admits only while its own
 * window has room, so neither version resets the other's window.
 */
@Tag("process")
class RedisRollingDeployTest {

  private static final int CALLS_EACH = 100;

  private RedisServer redis;
  private final ManualClock clock = ManualClock.startingAt(1_000_000_000_000_000L);
  private final List<RedisTokenService> open = new ArrayList<>();

  @BeforeEach
  void startRedis() throws Exception {
    redis = RedisServer.start();
  }

  @AfterEach
  void stop() throws Exception {
    for (RedisTokenService service : open) {
      service.close();
    }
    redis.close();
  }

  private static FlowRule version(double count, int buckets, Duration window) {
    return FlowRule.qps("orders", count)
        .withCluster(ClusterMode.global("orders").withWindow(buckets, window));
  }

  /** What the four instances (old, old, new, new) were granted in each simulated second. */
  private List<Integer> admittedPerSecond(FlowRule old, FlowRule updated, int seconds)
      throws InterruptedException {
    String namespace = "deploy-" + UUID.randomUUID();
    List<RedisTokenService> instances = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      instances.add(TokenRequests.connected(
          RedisTokenService.builder(redis.uri(), namespace), clock, 0));
    }
    open.addAll(instances);
    List<Integer> perSecond = new ArrayList<>();
    for (int second = 0; second < seconds; second++) {
      TokenRequests.Race race = TokenRequests.race(instances,
          List.of(old, old, updated, updated), CALLS_EACH);
      assertThat(race.failed()).isZero();
      perSecond.add(race.ok());
      clock.advance(Duration.ofSeconds(1));
    }
    return perSecond;
  }

  @Test
  void versionsWithOtherCounts_admitTheLargerCountPerSecond() throws Exception {
    List<Integer> admitted = admittedPerSecond(version(100, 10, Duration.ofSeconds(1)),
        version(150, 10, Duration.ofSeconds(1)), 4);
    System.out.println("racing versions 100/s and 150/s admitted per second: " + admitted);
    assertThat(admitted).containsOnly(150);
  }

  @Test
  void versionsWithOtherWindows_neverResetEachOther() throws Exception {
    // 100/s over 1 s (old) and 100/s over 2 s (new: up to 200 in one second, 200 per 2 s)
    List<Integer> admitted = admittedPerSecond(version(100, 10, Duration.ofSeconds(1)),
        version(100, 20, Duration.ofSeconds(2)), 4);
    System.out.println("racing 1 s and 2 s windows at 100/s admitted per second: " + admitted);
    // second 1: the new version may spend its 2 s window at once; after that the old version's
    // 1 s window is full each second (it counts the new version's passes), and the new version
    // stops at its own 200 per 2 s: whatever the interleaving of the racing calls
    assertThat(admitted).containsExactly(200, 100, 100, 100);
  }
}
