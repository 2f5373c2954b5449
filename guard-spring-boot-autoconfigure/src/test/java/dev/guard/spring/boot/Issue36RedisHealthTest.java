package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.redis.Eviction;
import dev.guard.redis.RedisTokenService;
import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Issue 36, finding 6: the health contributor {@code guard} says whether the Redis of the token
 * service may evict guard's keys (a real redis-server, its policy set as an operator would).
 */
@Tag("process")
class Issue36RedisHealthTest {

  private static RedisServer redis;

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start();
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      RedisCommands<String, String> commands = connection.sync();
      commands.configSet("maxmemory", "64mb");
      commands.configSet("maxmemory-policy", "allkeys-lru");
    } finally {
      client.shutdown();
    }
  }

  @AfterAll
  static void stopRedis() throws InterruptedException {
    redis.close();
  }

  private static ApplicationContextRunner app() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
            GuardActuatorAutoConfiguration.class))
        .withPropertyValues("guard.redis.uri=" + redis.uri(),
            "guard.redis.token-namespace=health", "guard.redis.fleet.enabled=false");
  }

  @Test
  void theHealthDetails_sayRedisMayEvictGuardsKeys_andTheStatusStaysUp() {
    app().run(context -> {
      assertThat(context.getBean(RedisTokenService.class).awaitConnected(Duration.ofSeconds(10)))
          .isTrue();

      Health health = context.getBean("guardHealthIndicator", HealthIndicator.class)
          .health(true);

      assertThat(health.getStatus()).isEqualTo(Status.UP);
      Map<?, ?> details = (Map<?, ?>) health.getDetails().get("redis");
      assertThat(details.get("available")).isEqualTo(true);
      Eviction eviction = (Eviction) details.get("eviction");
      assertThat(eviction.risk()).isEqualTo(Eviction.Risk.MAY_EVICT);
      assertThat(eviction.policy()).isEqualTo("allkeys-lru");
    });
  }

  @Test
  void withoutARedisTokenService_thereAreNoRedisDetails() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
            GuardActuatorAutoConfiguration.class))
        .run(context -> assertThat(context.getBean("guardHealthIndicator", HealthIndicator.class)
            .health(true).getDetails()).doesNotContainKey("redis"));
  }
}
