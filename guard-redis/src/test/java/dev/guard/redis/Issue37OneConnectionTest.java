package dev.guard.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.rules.RuleFormat;
import dev.guard.spi.RulePart;
import dev.guard.spi.TokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: an instance using the token service, the rule source and the fleet on one {@link
 * RedisConnection} holds one connection to Redis, which the rule source subscribes on (RESP3), and
 * two when RESP2 was negotiated; counted with {@code CLIENT LIST} on a real redis-server. The
 * source's poll waits on a parking manual clock that is only advanced where a test says so, so a
 * rule set applied otherwise came by a notice over the subscription.
 */
@Tag("process")
class Issue37OneConnectionTest {

  /** A bound, not a timing: the first Lettuce client of a cold JVM on a busy machine is slow. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  /** Each command's and connection attempt's bound, generous for a busy machine. */
  private static final Duration BOUND = Duration.ofSeconds(5);
  private static final Duration POLL = Duration.ofSeconds(5);
  private static final String KEY = "shop:guard-rules";
  private static final FlowRule SHARED =
      FlowRule.qps("R", 10).withCluster(ClusterMode.global("orders"));
  private static final PerValueRule PER_VALUE =
      PerValueRule.qps("api", 0, 10).withCluster(ClusterMode.global("keys"));

  /** The three users of one instance on one connection; the rule source listens. */
  private record Instance(RedisTokenService tokens, RedisRuleSource rules, RedisFleet fleet,
      GuardEngine engine, ManualClock clock, RedisRuleSourceTest.Heard heard)
      implements AutoCloseable {

    static Instance on(RedisConnection connection) throws InterruptedException {
      RedisTokenService tokens = RedisTokenService.builder(connection, "shop")
          .requestTimeout(BOUND).build();
      ManualClock clock = ManualClock.parking();
      RedisRuleSourceTest.Heard heard = new RedisRuleSourceTest.Heard();
      GuardEngine engine = GuardEngine.builder().clock(clock).tokenService(tokens)
          .listener(heard).build();
      RedisRuleSource rules = RedisRuleSource.builder(connection, KEY).pollInterval(POLL)
          .connectTimeout(BOUND).build();
      RedisFleet fleet = RedisFleet.builder(engine, connection, "shop").requestTimeout(BOUND)
          .build();
      Instance instance = new Instance(tokens, rules, fleet, engine, clock, heard);
      // an attempt that fails (its connect timeout passed) is followed by the next one
      Await.until("the connection to be made", PATIENCE, () -> connection.awaitConnected(BOUND));
      engine.attach(rules, RulePart.all()); // subscribes before it returns
      return instance;
    }

    /**
     * Token decisions, heartbeats and the fleet's view work while the source is subscribed: their
     * replies (numbers, arrays of two, a per-value array of four with a state string) are never
     * taken for a pub/sub message.
     */
    void worksWhileSubscribed() {
      assertThat(tokens.requestToken(SHARED, 1, false).status())
          .as("a token decision").isEqualTo(TokenService.Result.Status.OK);
      for (int call = 1; call <= 2; call++) { // the second finds a stored state
        assertThat(tokens.requestValueToken(PER_VALUE, "pmessage", 1).status())
            .as("per-value decision %d", call).isEqualTo(TokenService.Result.Status.OK);
      }
      assertThat(fleet.publish()).as("a heartbeat").isTrue();
      assertThat(fleet.view().instances()).as("the fleet's view").hasSize(1);
    }

    /** Lets one poll interval pass once the source waits for it. */
    void poll() throws InterruptedException {
      assertThat(clock.awaitSleepers(1, PATIENCE)).as("the source waits for its poll").isTrue();
      clock.advance(POLL);
    }

    /** Another instance writes the key: this one applies it by the notice, with no poll. */
    void hearsAWriteFrom(RedisServer redis, int qps) throws InterruptedException {
      writeFromAnotherInstance(redis, qps);
      assertThat(heard.next()).as("applied by the notice").startsWith("applied");
      assertThat(engine.ruleSet()).isEqualTo(ruleSet(qps));
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
  void anInstanceUsingAllThree_holdsOneConnection_andItsSubscriptionSurvivesARestart()
      throws Exception {
    try (RedisServer redis = RedisServer.start();
        RedisConnection connection = RedisConnection.builder(redis.uri()).connectTimeout(BOUND)
            .build();
        Instance instance = Instance.on(connection)) {
      instance.worksWhileSubscribed();
      instance.hearsAWriteFrom(redis, 11);
      List<Map<String, String>> guard = clients(redis, "guard");
      System.out.println("connections of an instance using token service, rule source and fleet"
          + " on one RedisConnection: " + guard.size());
      assertThat(guard).as("one connection, subscribed, speaking RESP3").hasSize(1);
      assertThat(guard.get(0)).containsEntry("sub", "1").containsEntry("resp", "3");

      redis.kill();
      instance.poll();
      assertThat(instance.heard().next()).as("the outage, heard by the poll")
          .contains("could not be read");
      redis.restart(); // the key is lost; the source subscribes again at its next look
      redis.cli("SET", KEY, RuleFormat.write(ruleSet(12)));
      instance.poll();
      assertThat(instance.heard().next()).as("applied by the poll").startsWith("applied");
      instance.hearsAWriteFrom(redis, 13);
      assertThat(clients(redis, "guard")).as("one connection again, subscribed").hasSize(1)
          .allSatisfy(client -> assertThat(client).containsEntry("sub", "1"));

      RedisRuleSourceTest.Heard heardToo = new RedisRuleSourceTest.Heard();
      try (GuardEngine another = GuardEngine.builder().clock(ManualClock.parking())
          .listener(heardToo).build();
          RedisRuleSource alsoOnKey = RedisRuleSource.builder(connection, KEY)
              .connectTimeout(BOUND).build()) {
        another.attach(alsoOnKey, RulePart.all());
        assertThat(heardToo.next()).as("what the key holds").startsWith("applied");
        instance.rules().close(); // one of two users of the channel leaves
        writeFromAnotherInstance(redis, 14);
        assertThat(heardToo.next()).as("the channel's other user still hears notices")
            .startsWith("applied");
      }
      Await.until("the closed sources to unsubscribe", PATIENCE,
          () -> redis.cli("PUBSUB", "NUMSUB", KEY).endsWith("\n0"));
      assertThat(clients(redis, "guard")).as("the shared connection stays open").hasSize(1);
    }
  }

  @Test
  void aClientForcedToResp2_keepsASeparatePubSubConnection_andEverythingWorks() throws Exception {
    RedisClient application = RedisClient.create();
    application.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2)
        .autoReconnect(false).build());
    try (RedisServer redis = RedisServer.start();
        RedisConnection connection = RedisConnection.wrapping(application, redis.uri());
        Instance instance = Instance.on(connection)) {
      instance.worksWhileSubscribed();
      instance.hearsAWriteFrom(redis, 21);
      List<Map<String, String>> guard = clients(redis, "guard");
      System.out.println("connections of the same instance on a client forced to RESP2: "
          + guard.size());
      assertThat(guard).as("commands, and the source's own subscription").hasSize(2)
          .allSatisfy(client -> assertThat(client).containsEntry("resp", "2"));
      assertThat(guard).extracting(client -> client.get("sub")).containsExactlyInAnyOrder("0", "1");
    } finally {
      application.shutdown();
    }
  }

  private static void writeFromAnotherInstance(RedisServer redis, int qps) {
    try (RedisRuleSource other = RedisRuleSource.builder(redis.uri(), KEY).connectTimeout(BOUND)
        .build()) {
      other.write(ruleSet(qps));
    }
  }

  private static RuleSet ruleSet(int qps) {
    return RuleSet.of(List.of(FlowRule.qps("search", qps)));
  }

  /** The server's clients of one name, each as its {@code CLIENT LIST} fields. */
  private static List<Map<String, String>> clients(RedisServer redis, String name)
      throws Exception {
    RedisClient direct = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> mine = direct.connect()) {
      return mine.sync().clientList().lines().filter(line -> !line.isBlank())
          .map(Issue37OneConnectionTest::fields)
          .filter(fields -> name.equals(fields.get("name"))).toList();
    } finally {
      direct.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  private static Map<String, String> fields(String line) {
    Map<String, String> fields = new HashMap<>();
    for (String field : line.split(" ")) {
      int eq = field.indexOf('=');
      if (eq > 0) {
        fields.put(field.substring(0, eq), field.substring(eq + 1));
      }
    }
    return fields;
  }
}
