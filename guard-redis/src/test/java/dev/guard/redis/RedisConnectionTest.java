package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "On Redis", the connection: made in the background so that no call waits
 * for it, and made again on the service's own retry schedule (on its clock), so that the shared
 * limit is back one retry interval after Redis is, however long the outage was.
 */
@Tag("process")
class RedisConnectionTest {

  private static final FlowRule RULE =
      FlowRule.qps("R", 10).withCluster(ClusterMode.global("orders"));
  private static final Duration RETRY = Duration.ofSeconds(1);
  /** Longer than any wait the test allows: a call that waited for it would fail the test. */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  private static RedisTokenService slowToGiveUp(String uri) {
    return RedisTokenService.builder(uri, "shop")
        .requestTimeout(REQUEST_TIMEOUT)
        .connectTimeout(Duration.ofSeconds(30))
        .build();
  }

  @Test
  void firstCall_rightAfterBuild_decidesLocallyAtOnce_whenRedisIsDown() throws Exception {
    String uri;
    try (RedisServer redis = RedisServer.start()) {
      uri = redis.uri(); // a port where nothing answers once it is killed
    }
    try (RedisTokenService service = slowToGiveUp(uri)) {
      assertThat(assertTimeoutPreemptively(REQUEST_TIMEOUT,
          () -> service.requestToken(RULE, 1, false))).isEqualTo(TokenService.Result.FAILED);
    }
  }

  @Test
  void firstCall_rightAfterBuild_decidesLocallyAtOnce_whenRedisIsStopped() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      redis.pause();
      try (RedisTokenService service = slowToGiveUp(redis.uri())) {
        assertThat(assertTimeoutPreemptively(REQUEST_TIMEOUT,
            () -> service.requestToken(RULE, 1, false))).isEqualTo(TokenService.Result.FAILED);
        assertThat(service.available()).as("an attempt under way is no outage").isTrue();
      } finally {
        redis.resume();
      }
    }
  }

  @Test
  void awaitConnected_waitsForTheBackgroundConnection_thenCallsAreShared() throws Exception {
    try (RedisServer redis = RedisServer.start();
        RedisTokenService service = slowToGiveUp(redis.uri())) {
      assertThat(service.awaitConnected(PATIENCE)).isTrue();
      assertThat(service.requestToken(RULE, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
    }
  }

  @Test
  void awaitConnected_redisDown_returnsFalse() throws Exception {
    String uri;
    try (RedisServer redis = RedisServer.start()) {
      uri = redis.uri();
    }
    try (RedisTokenService service = slowToGiveUp(uri)) {
      assertThat(service.awaitConnected(PATIENCE)).isFalse();
    }
  }

  @Test
  void longOutage_decisionsAreSharedAgain_oneRetryIntervalAfterRedisIsBack() throws Exception {
    ManualClock clock = new ManualClock();
    try (RedisServer redis = RedisServer.start();
        RedisTokenService service = RedisTokenService.builder(redis.uri(), "shop")
            .requestTimeout(REQUEST_TIMEOUT)
            .backOff(2, RETRY)
            .clock(clock)
            .windowClock(clock)
            .build()) {
      assertThat(service.awaitConnected(PATIENCE)).isTrue();
      assertThat(service.requestToken(RULE, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);

      redis.kill();
      Await.until("the service to notice the killed server", Duration.ofSeconds(10), () -> {
        assertThat(service.requestToken(RULE, 1, false)).isEqualTo(TokenService.Result.FAILED);
        return !service.available();
      });
      // the client sees the closed socket on its own thread, maybe after the failed calls
      Await.until("the client to see its socket closed", Duration.ofSeconds(10),
          () -> !service.awaitConnected(Duration.ZERO));
      // 60 retry intervals on the service's clock, each with a refused attempt: a client library
      // backing off by itself would wait longer and longer between attempts by now
      for (int step = 0; step < 60; step++) {
        clock.advance(RETRY);
        assertThat(service.requestToken(RULE, 1, false)).isEqualTo(TokenService.Result.FAILED);
        assertThat(service.awaitConnected(PATIENCE)).isFalse();
      }

      redis.restart(); // same port, empty windows
      try (RedisTokenService other = RedisTokenService.builder(redis.uri(), "shop")
          .windowClock(clock).build()) {
        assertThat(other.awaitConnected(PATIENCE)).isTrue();
        clock.advance(RETRY);
        for (int i = 0; i < 4; i++) {
          assertThat(other.requestToken(RULE, 1, false).status())
              .isEqualTo(TokenService.Result.Status.OK);
        }
        assertThat(service.requestToken(RULE, 1, false))
            .as("the due attempt starts; the call does not wait for it")
            .isEqualTo(TokenService.Result.FAILED);
        assertThat(service.awaitConnected(PATIENCE)).isTrue();
        TokenService.Result shared = service.requestToken(RULE, 1, false);
        assertThat(shared.status()).isEqualTo(TokenService.Result.Status.OK);
        assertThat(shared.remaining()).as("shared with the other instance's 4 permits").isEqualTo(5);
        assertThat(service.available()).isTrue();
      }
    }
  }

  @Test
  void close_endsTheConnectionThread() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      RedisTokenService service = slowToGiveUp(redis.uri());
      assertThat(service.awaitConnected(PATIENCE)).isTrue();
      service.close();
      assertThat(Thread.getAllStackTraces().keySet().stream()
          .filter(Thread::isAlive)
          .map(Thread::getName)
          .filter(name -> name.equals("guard-redis connect " + redis.uri().substring(8))))
          .isEmpty();
    }
  }
}
