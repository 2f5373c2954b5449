package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * How the Redis token service reports its backend: a slow first connection is not an outage, a
 * failed one is, and every change reaches the engine's listeners once.
 */
@Tag("process")
class RedisAvailabilityTest {

  private static final FlowRule RULE =
      FlowRule.qps("R", 10).withCluster(ClusterMode.global("orders"));

  /** A socket that accepts connections and never answers: a server that is slow to start. */
  private static ServerSocket silentServer() throws Exception {
    return new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
  }

  @Test
  void slowFirstConnection_answersFailedWithoutReportingAnOutage() throws Exception {
    List<Boolean> told = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = silentServer();
        RedisTokenService service = RedisTokenService
            .builder("redis://127.0.0.1:" + silent.getLocalPort(), "shop")
            .requestTimeout(Duration.ofMillis(10))
            .connectTimeout(Duration.ofSeconds(30))
            .backOff(2, Duration.ofSeconds(1))
            .onAvailability(told::add)
            .build()) {
      for (int i = 0; i < 10; i++) {
        assertThat(service.requestToken(RULE, 1, false)).isEqualTo(TokenService.Result.FAILED);
      }
      assertThat(told).isEmpty();
      assertThat(service.available()).isTrue();
    }
  }

  @Test
  void failedFirstConnection_countsAsAFailure_andIsReportedOnce() throws Exception {
    List<Boolean> told = new CopyOnWriteArrayList<>();
    ManualClock clock = new ManualClock();
    try (ServerSocket silent = silentServer();
        RedisTokenService service = RedisTokenService
            .builder("redis://127.0.0.1:" + silent.getLocalPort(), "shop")
            .requestTimeout(Duration.ofMillis(10))
            .connectTimeout(Duration.ofMillis(100))
            .backOff(2, Duration.ofSeconds(1))
            .clock(clock)
            .onAvailability(told::add)
            .build()) {
      Await.until("the failed first connection to count as an outage", Duration.ofSeconds(10),
          () -> {
            assertThat(service.requestToken(RULE, 1, false))
                .isEqualTo(TokenService.Result.FAILED);
            return !service.available();
          });
      assertThat(told).containsExactly(false);
      // backing off on the manual clock: answered at once, nothing more reported
      for (int i = 0; i < 100; i++) {
        assertThat(service.requestToken(RULE, 1, false)).isEqualTo(TokenService.Result.FAILED);
      }
      assertThat(told).containsExactly(false);
    }
  }

  @Test
  void outageAndRecovery_reachTheEngineListener_oncePerChange() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    try (RedisServer redis = RedisServer.start();
        RedisTokenService service = RedisTokenService.builder(redis.uri(), "shop")
            .requestTimeout(Duration.ofMillis(200))
            .backOff(2, Duration.ofMillis(100))
            .build()) {
      GuardEngine engine = GuardEngine.builder()
          .clock(new ManualClock())
          .tokenService(service)
          .listener(new EngineListener() {
            @Override
            public void onTokenServiceAvailability(boolean available, TokenService from) {
              heard.add(available + " " + (from == service));
            }
          })
          .build();
      engine.apply(engine.ruleSet().withRulesOf("R", List.of(RULE)));
      awaitAnswer(service, TokenService.Result.Status.OK);

      redis.kill();
      // the outage is reported once the attempt to connect again has failed (a few ms here)
      Await.until("the service to notice the killed server", Duration.ofSeconds(10), () -> {
        service.requestToken(RULE, 1, false);
        return !service.available();
      });
      for (int i = 0; i < 20; i++) {
        service.requestToken(RULE, 1, false);
      }
      assertThat(heard).containsExactly("false true");

      redis.restart();
      awaitAnswer(service, TokenService.Result.Status.OK);
      for (int i = 0; i < 20; i++) {
        service.requestToken(RULE, 1, false);
      }
      assertThat(heard).containsExactly("false true", "true true");
    }
  }

  /** Asks until the service answers {@code status}, for at most 15 s. */
  private static void awaitAnswer(RedisTokenService service, TokenService.Result.Status status) {
    Await.until("the service to answer " + status, Duration.ofSeconds(15),
        () -> service.requestToken(RULE, 1, false).status() == status);
  }
}
