package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET api/fleet} over HTTP: three instances of one JVM on a real redis-server, the sums
 * equal to each engine's own totals, the disagreement flags, rule edits through the Redis rule
 * source applied by every instance, and the dashboard's security.
 */
@Tag("process")
class DashboardFleetTest {

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> get(FleetWorld world, String path, boolean token)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(world.server.uri().resolve(path))
        .timeout(Duration.ofSeconds(10));
    if (token) {
      request.header("Authorization", "Bearer " + Fixture.TOKEN);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode fleet(FleetWorld world) throws Exception {
    HttpResponse<String> response = get(world, "api/fleet", true);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Fixture.json(response.body());
  }

  private static JsonNode instance(JsonNode fleet, String id) {
    for (JsonNode instance : fleet.get("instances")) {
      if (instance.get("id").asString().equals(id)) {
        return instance;
      }
    }
    throw new AssertionError(id + " not in " + fleet.get("instances"));
  }

  @Test
  void fleet_listsInstancesSumsTheirFiguresAndFlagsOtherRules() throws Exception {
    try (FleetWorld world = new FleetWorld(3, b -> b.accessToken(Fixture.TOKEN))) {
      world.sources.get(0).write(RuleSet.of(FlowRule.qps("checkout", 5)));
      world.nextApplied(0);
      world.nextApplied(1);
      world.nextApplied(2);
      world.call(0, "checkout", 8);
      world.call(1, "checkout", 6);
      world.call(2, "checkout", 2);
      world.beat();

      JsonNode fleet = fleet(world);

      assertThat(fleet.get("problem").isNull()).isTrue();
      assertThat(fleet.get("self").asString()).isEqualTo("shop-a");
      assertThat(fleet.get("instances")).hasSize(3);
      assertThat(fleet.get("rulesAgree").asBoolean()).isTrue();
      JsonNode checkout = fleet.get("resources").get(0);
      assertThat(checkout.get("name").asString()).isEqualTo("checkout");
      long pass = 0;
      long refused = 0;
      for (int i = 0; i < 3; i++) {
        var own = world.engines.get(i).metricsTotals("checkout");
        JsonNode mine = checkout.get("byInstance").get(world.fleets.get(i).instanceId());
        assertThat(mine.get("pass").asLong()).isEqualTo(own.pass());
        assertThat(mine.get("refused").asLong()).isEqualTo(own.refused());
        pass += own.pass();
        refused += own.refused();
      }
      assertThat(checkout.get("total").get("pass").asLong()).isEqualTo(pass).isEqualTo(12);
      assertThat(checkout.get("total").get("refused").asLong()).isEqualTo(refused).isEqualTo(4);
      assertThat(checkout.get("seconds").get(0).get("t").asLong()).isZero();

      // one instance applies rules of its own
      world.engines.get(2).apply(RuleSet.of(FlowRule.qps("checkout", 50)));
      world.beat();
      fleet = fleet(world);
      assertThat(fleet.get("rulesAgree").asBoolean()).isFalse();
      assertThat(instance(fleet, "shop-c").get("agrees").asBoolean()).isFalse();
      assertThat(instance(fleet, "shop-a").get("agrees").asBoolean()).isTrue();

      // an edit through the dashboard goes through the Redis rule source: every instance applies it
      HttpResponse<String> put =
          world.putRules(Fixture.TOKEN, RuleSet.of(FlowRule.qps("checkout", 4)));
      assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
      world.nextApplied(1);
      world.nextApplied(2);
      long appliedAt = world.clock.wallTime().toEpochMilli();
      world.beat();
      fleet = fleet(world);
      assertThat(fleet.get("rulesAgree").asBoolean()).isTrue();
      for (JsonNode instance : fleet.get("instances")) {
        assertThat(instance.get("rulesAppliedAtMs").asLong()).isEqualTo(appliedAt);
        assertThat(instance.get("ruleSource").asString()).startsWith("redis:" + FleetWorld.RULES_KEY);
      }

      // an instance that leaves is no longer listed
      world.leave(2);
      assertThat(fleet(world).get("instances")).hasSize(2);
    }
  }

  @Test
  void fleet_saysWhetherRedisMayEvictGuardsKeys() throws Exception {
    try (FleetWorld world = new FleetWorld(1, b -> b.accessToken(Fixture.TOKEN))) {
      world.beat();
      assertThat(fleet(world).get("eviction").get("risk").asString()).isEqualTo("NONE");

      RedisClient client = RedisClient.create(world.redis.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        connection.sync().configSet("maxmemory", "100mb");
        connection.sync().configSet("maxmemory-policy", "allkeys-lru");
      } finally {
        client.shutdown();
      }

      JsonNode eviction = fleet(world).get("eviction");
      assertThat(eviction.get("risk").asString()).isEqualTo("MAY_EVICT");
      assertThat(eviction.get("policy").asString()).isEqualTo("allkeys-lru");
      assertThat(eviction.get("detail").asString()).contains("allkeys-lru");
    }
  }

  @Test
  void fleet_needsWhatEveryReadNeeds_andIsNamedInTheOverview() throws Exception {
    try (FleetWorld world = new FleetWorld(1, b -> b.accessToken(Fixture.TOKEN))) {
      assertThat(get(world, "api/fleet", false).statusCode()).isEqualTo(401);
      assertThat(get(world, "fleet.html", false).statusCode()).isEqualTo(401);
      assertThat(get(world, "api/fleet?x=1", true).statusCode()).isEqualTo(400);
      HttpResponse<String> page = get(world, "fleet.html", true);
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();
      assertThat(Fixture.json(get(world, "api/overview", true).body()).get("fleet").asString())
          .contains("namespace=shop");
    }
  }

  @Test
  void withoutAFleet_theEndpointSaysSo() {
    try (Fixture fixture = Fixture.withToken()) {
      HttpResponse<String> response = fixture.send(fixture.authorized("api/fleet"));
      assertThat(response.statusCode()).isEqualTo(404);
      assertThat(response.body()).contains("shows no fleet");
      assertThat(fixture.get("api/overview").get("fleet").isNull()).isTrue();
    }
  }
}
