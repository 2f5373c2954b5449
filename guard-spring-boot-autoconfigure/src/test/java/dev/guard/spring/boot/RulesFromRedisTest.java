package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisFleet;
import dev.guard.redis.RedisTokenService;
import dev.guard.testing.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** guard.redis.*: the rules from a key of a real redis-server, and the token service on it. */
@Tag("process")
class RulesFromRedisTest {

  private static RedisServer redis;
  private static String uri;

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start();
    uri = redis.uri();
    redis.cli("SET", "shop:rules",
        "{\"version\":1,\"flow\":[{\"resource\":\"search\",\"qps\":12}]}");
  }

  @AfterAll
  static void stopRedis() throws InterruptedException {
    redis.close();
  }

  @Test
  void the_rules_come_from_the_key_and_the_token_service_from_the_namespace() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class))
        .withPropertyValues("guard.redis.uri=" + uri, "guard.redis.rules-key=shop:rules",
            "guard.redis.token-namespace=shop")
        .run(context -> {
          assertThat(context).hasNotFailed();
          GuardEngine engine = context.getBean(GuardEngine.class);
          assertThat(engine.rules("search")).containsExactly(FlowRule.qps("search", 12));
          assertThat(context.getBean(GuardRules.class).source()).hasValueSatisfying(
              name -> assertThat(name).startsWith("redis:shop:rules@"));
          assertThat(engine.tokenService()).containsSame(context.getBean(RedisTokenService.class));
          assertThat(context.getBean(RedisFleet.class).awaitConnected(Duration.ofSeconds(10)))
              .isTrue();
          assertThat(redis.cli("CLIENT", "LIST").lines().filter(l -> l.contains("name=guard ")))
              .as("one connection shared by the rule source (subscribed on it), the token "
                  + "service and the fleet")
              .hasSize(1);
        });
  }
}
