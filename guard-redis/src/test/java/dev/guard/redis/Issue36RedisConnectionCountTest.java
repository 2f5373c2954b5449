package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.RulePart;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One connection per instance: the connections an instance using the token service, the rule
 * source and the fleet holds on a real redis-server, counted with {@code CLIENT LIST}.
 */
@Tag("process")
class Issue36RedisConnectionCountTest {

  private static final Duration PATIENCE = Duration.ofSeconds(10);
  /** The token services' request timeout: a first call on a cold JVM may take more than 20 ms. */
  private static final Duration COLD_CALL = Duration.ofSeconds(1);
  private static final FlowRule RULE =
      FlowRule.qps("R", 10).withCluster(ClusterMode.global("orders"));

  /** The three users of one instance. */
  private record Instance(RedisTokenService tokens, RedisRuleSource rules, RedisFleet fleet,
      GuardEngine engine) implements AutoCloseable {

    /** Makes every user talk to Redis once. */
    Instance used() {
      assertThat(tokens.awaitConnected(PATIENCE)).as("tokens connected").isTrue();
      // asks until answered: a busy machine may answer the first request after its 20 ms
      assertThat(TokenRequests.firstAnswer(tokens, RULE).status())
          .isEqualTo(TokenService.Result.OK.status());
      engine.attach(rules, RulePart.all());
      assertThat(fleet.awaitConnected(PATIENCE)).as("fleet connected").isTrue();
      assertThat(fleet.publish()).as("published").isTrue();
      return this;
    }

    @Override
    public void close() {
      fleet.close();
      rules.close();
      engine.close();
      tokens.close();
    }
  }

  @Test
  void anInstanceUsingAllThree_holdsOneConnectionOnASharedOne_andThreeOnTheirOwn()
      throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      RedisClient direct = RedisClient.create(redis.uri());
      try (StatefulRedisConnection<String, String> mine = direct.connect()) {
        long own;
        RedisTokenService ownTokens = RedisTokenService.builder(redis.uri(), "shop")
            .requestTimeout(COLD_CALL).build();
        GuardEngine ownEngine = engine(ownTokens);
        try (Instance instance = new Instance(ownTokens, RedisRuleSource.of(redis.uri(), "rules"),
            RedisFleet.builder(ownEngine, redis.uri(), "shop").build(), ownEngine).used()) {
          own = others(mine);
        }
        Await.until("the server to list only the test's client", PATIENCE,
            () -> others(mine) == 0);

        long shared;
        try (RedisConnection connection = RedisConnection.of(redis.uri())) {
          RedisTokenService tokens = RedisTokenService.builder(connection, "shop")
              .requestTimeout(COLD_CALL).build();
          GuardEngine engine = engine(tokens);
          try (Instance instance = new Instance(tokens, RedisRuleSource.of(connection, "rules"),
              RedisFleet.builder(engine, connection, "shop").build(), engine).used()) {
            shared = others(mine);
          }
          assertThat(connection.awaitConnected(Duration.ZERO))
              .as("the users leave the shared connection open").isTrue();
          assertThat(others(mine)).as("the shared connection, its users closed").isEqualTo(1);
        }
        System.out.println("connections of an instance using token service, rule source and fleet:"
            + " " + own + " on their own, " + shared + " sharing one RedisConnection");
        assertThat(own).as("token service, rule source (subscribed on its one), fleet")
            .isEqualTo(3);
        assertThat(shared).as("one connection, which the rule source subscribes on too")
            .isEqualTo(1);
      } finally {
        direct.shutdown();
      }
    }
  }

  @Test
  void wrapping_usesTheApplicationsClient_andNeverShutsItDown() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      RedisClient application = RedisClient.create();
      try {
        try (RedisConnection connection = RedisConnection.wrapping(application, redis.uri());
            RedisTokenService tokens = RedisTokenService.builder(connection, "shop")
                .requestTimeout(COLD_CALL).build()) {
          assertThat(tokens.awaitConnected(PATIENCE)).as("connected").isTrue();
          assertThat(TokenRequests.firstAnswer(tokens, RULE).status())
              .isEqualTo(TokenService.Result.OK.status());
        }
        try (StatefulRedisConnection<String, String> after =
            application.connect(RedisURI.create(redis.uri()))) {
          assertThat(after.sync().ping()).as("the client still works").isEqualTo("PONG");
        }
      } finally {
        application.shutdown();
      }
    }
  }

  private static GuardEngine engine(RedisTokenService tokens) {
    return GuardEngine.builder().tokenService(tokens).build();
  }

  /** The clients the server lists, other than the test's own connection. */
  private static long others(StatefulRedisConnection<String, String> mine) {
    return mine.sync().clientList().lines().filter(line -> !line.isBlank()).count() - 1;
  }
}
