package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.Entry;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TokenService;
import dev.guard.testing.RedisTlsServer;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.SslOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 39: Redis over TLS ({@code rediss://}), against a real redis-server that speaks only TLS
 * with a certificate made for the test. Trusting the server's authority, shared limits are decided
 * through Redis; a client that trusts another authority only degrades as for an outage (no exception reaches
 * the guarded code) and a warning says why.
 */
@Tag("process")
class Issue39RedisTlsTest {

  /** 10 permits in a 10 s window shared through Redis; local fallback when Redis is away. */
  private static final FlowRule SHARED = FlowRule.qps("orders", 1).withCluster(
      ClusterMode.global("tls-orders").withWindow(10, Duration.ofSeconds(10)));
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  private static RedisTlsServer redis;

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisTlsServer.start();
  }

  @AfterAll
  static void stopRedis() throws InterruptedException {
    redis.close();
  }

  private static SslOptions trustingTheServer() {
    return SslOptions.builder().trustManager(redis.caCertificate().toFile()).build();
  }

  @Test
  void rediss_trustingTheServersAuthority_decidesSharedLimitsThroughRedis() {
    // a cold JVM's first TLS handshake on a busy machine may take more than the default 1 s
    try (RedisConnection connection = RedisConnection.builder(redis.uri())
            .ssl(trustingTheServer()).connectTimeout(PATIENCE).build();
        RedisTokenService tokens = RedisTokenService.builder(connection, "tls")
            .requestTimeout(Duration.ofSeconds(2)).build()) {
      assertThat(connection.awaitConnected(PATIENCE)).as("connected over TLS").isTrue();

      assertThat(tokens.requestToken(SHARED, 1, false)).usingRecursiveComparison()
          .ignoringFields("tokenId").isEqualTo(TokenService.Result.ok(9));
      assertThat(tokens.requestToken(SHARED, 1, false)).as("Redis counted the first call")
          .usingRecursiveComparison().ignoringFields("tokenId")
          .isEqualTo(TokenService.Result.ok(8));
      assertThat(connection.toString()).contains("127.0.0.1:" + redis.port() + " (TLS)");
    }
  }

  @Test
  void rediss_notTrustingTheServer_degradesAsForAnOutage_andSaysWhy() {
    Logger log = Logger.getLogger("dev.guard.redis");
    List<LogRecord> records = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord logged) {
        records.add(logged);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    log.addHandler(capture);
    ManualClock clock = new ManualClock();
    try (RedisConnection connection = RedisConnection.builder(redis.uri())
            .ssl(SslOptions.builder().trustManager(redis.strangerCertificate().toFile()).build())
            .build();
        RedisTokenService tokens = RedisTokenService.builder(connection, "tls").build();
        GuardEngine engine = GuardEngine.builder().clock(clock).tokenService(tokens).build()) {
      assertThat(connection.awaitConnected(PATIENCE)).as("the attempt fails").isFalse();
      engine.apply(engine.ruleSet().withRulesOf("orders", List.of(SHARED)));

      assertThat(tokens.requestToken(SHARED, 1, false).status())
          .isEqualTo(TokenService.Result.Status.FAILED);
      assertThat(records).as("a warning says why").anySatisfy(r -> {
        assertThat(r.getLevel()).isEqualTo(Level.WARNING);
        assertThat(r.getMessage()).contains("127.0.0.1:" + redis.port() + " (TLS): cannot connect");
      });
      try (Entry admitted = engine.resource("orders").enter()) {
        assertThat(admitted).as("decided locally (the rule's fallback), no exception").isNotNull();
      }
    } finally {
      log.removeHandler(capture);
    }
  }
}
