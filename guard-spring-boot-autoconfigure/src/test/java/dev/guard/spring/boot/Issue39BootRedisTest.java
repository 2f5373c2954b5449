package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.redis.RedisConnection;
import dev.guard.redis.RedisFleet;
import dev.guard.redis.RedisRuleSource;
import dev.guard.redis.RedisTokenService;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import dev.guard.testing.RedisTlsServer;
import dev.guard.testing.RefusingPort;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Issue 39: the starter uses the Redis the application configured for Spring Boot ({@code
 * spring.data.redis.*}, its connection details, its SSL bundles) when {@code guard.redis.uri} is
 * not set; {@code guard.redis.uri} still names a Redis of guard's own. Real redis-servers on
 * loopback: one that wants a password, one that speaks only TLS.
 */
@Tag("process")
class Issue39BootRedisTest {

  private static final String PASSWORD = "s3cret-Boot-pw";
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  /** 10 permits in a 10 s window shared through Redis. */
  private static final FlowRule SHARED = FlowRule.qps("orders", 1).withCluster(
      ClusterMode.global("boot-orders").withWindow(10, Duration.ofSeconds(10)));

  private static RedisServer redis;

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start(List.of("--requirepass", PASSWORD));
  }

  @AfterAll
  static void stopRedis() throws InterruptedException {
    redis.close();
  }

  private static ApplicationContextRunner app() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class,
            DataRedisAutoConfiguration.class, GuardAutoConfiguration.class,
            GuardActuatorAutoConfiguration.class))
        .withPropertyValues("guard.redis.token-namespace=boot");
  }

  /**
   * Whether a shared-limit decision is made through Redis, asking until one is (the connection is
   * made in the background, again after a failed attempt; a busy machine may answer a request
   * after its timeout).
   */
  private static boolean throughRedis(RedisTokenService tokens) {
    Await.until("a decision through Redis by " + tokens, PATIENCE,
        () -> tokens.requestToken(SHARED, 1, false).status() == TokenService.Result.Status.OK);
    return true;
  }

  @Test
  void bootsRedis_withoutGuardRedisUri_isGuardsOneConnection_andNoCredentialShows() {
    app().withPropertyValues("spring.data.redis.host=127.0.0.1",
            "spring.data.redis.port=" + redis.port(), "spring.data.redis.password=" + PASSWORD,
            "guard.redis.rules-key=boot:rules")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(RedisConnection.class)
              .hasSingleBean(RedisRuleSource.class).hasSingleBean(RedisFleet.class);
          RedisTokenService tokens = context.getBean(RedisTokenService.class);
          assertThat(throughRedis(tokens)).as("decided through Boot's Redis").isTrue();

          String shown = context.getBean(RedisConnection.class) + " " + tokens + " "
              + context.getBean(RedisFleet.class) + " "
              + context.getBean("guardHealthIndicator", HealthIndicator.class).health(true);
          assertThat(shown).contains("127.0.0.1:" + redis.port()).doesNotContain(PASSWORD);
        });
  }

  @Test
  void guardRedisUri_wins_overBootsRedis() throws Exception {
    try (RefusingPort nothing = RefusingPort.open()) {
      app().withPropertyValues("spring.data.redis.port=" + nothing.port(),
              "guard.redis.uri=redis://default:" + PASSWORD + "@127.0.0.1:" + redis.port(),
              "guard.redis.fleet.enabled=false")
          .run(context -> {
            assertThat(throughRedis(context.getBean(RedisTokenService.class))).isTrue();
            assertThat(context.getBean(RedisConnection.class).toString())
                .doesNotContain(PASSWORD);
          });
    }
  }

  @Test
  void withoutBootsRedis_andWithoutGuardRedisUri_guardHasNoRedis() {
    app().withClassLoader(new FilteredClassLoader(DataRedisConnectionDetails.class))
        .run(context -> assertThat(context).hasNotFailed()
            .doesNotHaveBean(RedisConnection.class).doesNotHaveBean(RedisTokenService.class));
  }

  @Test
  void bootsSslBundle_trustsTheTlsServer() throws Exception {
    try (RedisTlsServer tls = RedisTlsServer.start()) {
      app().withPropertyValues("spring.data.redis.host=127.0.0.1",
              "spring.data.redis.port=" + tls.port(), "spring.data.redis.ssl.enabled=true",
              "spring.data.redis.ssl.bundle=redis",
              "spring.ssl.bundle.pem.redis.truststore.certificate=file:" + tls.caCertificate(),
              "guard.redis.fleet.enabled=false")
          .run(context -> {
            RedisConnection connection = context.getBean(RedisConnection.class);
            assertThat(connection.toString()).contains("127.0.0.1:" + tls.port() + " (TLS)");
            assertThat(throughRedis(context.getBean(RedisTokenService.class)))
                .as("decided through Boot's Redis over TLS").isTrue();
          });
    }
  }

  @Test
  void bootsSentinelAndClusterSettings_becomeGuardsConnection() {
    app().withPropertyValues("spring.data.redis.sentinel.master=shop",
            "spring.data.redis.sentinel.nodes=127.0.0.1:1,127.0.0.1:2",
            "spring.data.redis.sentinel.password=sentinel-" + PASSWORD,
            "guard.redis.fleet.enabled=false")
        .run(context -> assertThat(context.getBean(RedisConnection.class).toString())
            .contains("master 'shop' of sentinels 127.0.0.1:1,127.0.0.1:2")
            .doesNotContain(PASSWORD));
    app().withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:1,127.0.0.1:2",
            "guard.redis.fleet.enabled=false")
        .run(context -> assertThat(context.getBean(RedisConnection.class).toString())
            .contains("cluster 127.0.0.1:1,127.0.0.1:2"));
  }

  @Test
  void bootsStaticMasterReplica_failsTheStart_namingTheProperty() {
    app().withPropertyValues("spring.data.redis.masterreplica.nodes=127.0.0.1:1,127.0.0.1:2",
            "guard.redis.fleet.enabled=false")
        .run(context -> assertThat(context).hasFailed().getFailure()
            .rootCause().isInstanceOf(InvalidGuardSettingsException.class)
            .hasMessageContaining("spring.data.redis.masterreplica"));
  }
}
