package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisTokenService;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** guard.redis.*: the rules from a key of a real redis-server, and the token service on it. */
class RulesFromRedisTest {

  private static Process redis;
  private static String uri;

  @BeforeAll
  static void startRedis() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Path dir = Files.createTempDirectory("guard-spring-redis");
    redis = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port), "--bind",
            "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
    uri = "redis://127.0.0.1:" + port;
    RedisClient client = RedisClient.create(uri);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (true) {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
          connection.sync().set("shop:rules",
              "{\"version\":1,\"flow\":[{\"resource\":\"search\",\"qps\":12}]}");
          break;
        } catch (RuntimeException notYet) {
          if (System.nanoTime() > deadline || !redis.isAlive()) {
            throw new IOException("redis-server did not start: "
                + Files.readString(dir.resolve("redis.log")), notYet);
          }
          TimeUnit.MILLISECONDS.sleep(20);
        }
      }
    } finally {
      client.shutdown();
    }
  }

  @AfterAll
  static void stopRedis() throws InterruptedException {
    redis.destroyForcibly();
    redis.waitFor(10, TimeUnit.SECONDS);
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
        });
  }
}
