package dev.guard.dashboard;

import dev.guard.spi.RulePart;
import static org.assertj.core.api.Assertions.assertThat;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.api.Entry;
import dev.guard.rules.RuleSources;
import dev.guard.spi.RuleSource;
import dev.guard.rules.RuleFormat;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Every JSON endpoint over HTTP, on an engine driven by a manual clock. */
class DashboardApiTest {

  private final Fixture fixture = Fixture.withToken();

  @AfterEach
  void close() {
    fixture.close();
  }

  private void applyRules(FlowRule... rules) {
    fixture.engine.apply(RuleSet.of(List.of(rules)));
  }

  @Test
  void resources_sortedByRefused_putsTheMostRefusedFirst() {
    applyRules(FlowRule.qps("search", 1), FlowRule.qps("orders", 100));
    fixture.call("orders", 5);
    fixture.call("search", 5);

    JsonNode byRefused = fixture.get("api/resources?sort=refused");
    JsonNode byPassed = fixture.get("api/resources?sort=passed");

    assertThat(names(byRefused.get("resources"))).containsExactly("search", "orders");
    assertThat(byRefused.get("resources").get(0).get("refusedQps").asDouble()).isEqualTo(4.0);
    assertThat(names(byPassed.get("resources"))).containsExactly("orders", "search");
    assertThat(byPassed.get("resources").get(0).get("minutePass").asLong()).isEqualTo(5);
  }

  @Test
  void resource_live_givesTheOneSecondFigures() {
    fixture.call("orders", 3);

    JsonNode live = fixture.get("api/resource?name=orders");

    assertThat(live.get("passQps").asDouble()).isEqualTo(3.0);
    assertThat(live.get("concurrency").asLong()).isZero();
  }

  @Test
  void metrics_givesOnePointPerClosedSecond() {
    applyRules(FlowRule.qps("orders", 3));
    fixture.call("orders", 2);
    fixture.advanceSeconds(1);
    fixture.call("orders", 5);
    fixture.advanceSeconds(2);

    JsonNode metrics = fixture.get("api/resource/metrics?name=orders");

    JsonNode points = metrics.get("points");
    assertThat(points).hasSize(3);
    assertThat(points.get(0).get("t").asLong()).isZero();
    assertThat(points.get(0).get("pass").asLong()).isEqualTo(2);
    assertThat(points.get(1).get("pass").asLong()).isEqualTo(3);
    assertThat(points.get(1).get("refused").asLong()).isEqualTo(2);
    assertThat(points.get(2).get("pass").asLong()).isZero();
  }

  @Test
  void metrics_carryTheAdaptiveLimit_onlyForAResourceWithOne() {
    fixture.engine.apply(RuleSet.of(List.of(AdaptiveConcurrencyRule.of("orders").withLimits(7, 1, 100))));
    fixture.call("orders", 2);
    fixture.call("stock", 2);
    fixture.advanceSeconds(1);

    JsonNode orders = fixture.get("api/resource/metrics?name=orders").get("points");
    JsonNode stock = fixture.get("api/resource/metrics?name=stock").get("points");

    assertThat(orders.get(0).get("adaptiveLimit").asInt()).isEqualTo(7);
    assertThat(stock.get(0).has("adaptiveLimit")).isFalse();
  }

  @Test
  void metrics_afterLongTraffic_coversTheLastFiveMinutes() {
    for (int second = 0; second < 400; second++) {
      fixture.call("orders", 1);
      fixture.advanceSeconds(1);
      if (second % 20 == 0) {
        fixture.engine.recordMetrics();
      }
    }

    JsonNode points = fixture.get("api/resource/metrics?name=orders").get("points");

    assertThat(points).hasSize(300);
    assertThat(points.get(0).get("t").asLong()).isEqualTo(100_000);
    assertThat(points.get(299).get("pass").asLong()).isEqualTo(1);
  }

  @Test
  void refusals_countTheLastMinuteByKindAndOrigin() {
    applyRules(FlowRule.qps("orders", 2));
    try (ContextScope web = fixture.engine.resource("shop").context("shop", "web").openContext()) {
      assertThat(web.opened()).isTrue();
      fixture.call("orders", 5);
    }
    fixture.advanceSeconds(1);

    JsonNode refusals = fixture.get("api/resource/refusals?name=orders");

    assertThat(refusals.get("total").asLong()).isEqualTo(3);
    assertThat(refusals.get("byKind").get("flow").asLong()).isEqualTo(3);
    assertThat(refusals.get("byKind").get("circuit-breaker").asLong()).isZero();
    assertThat(refusals.get("byOrigin").get("web").asLong()).isEqualTo(3);
  }

  @Test
  void rules_showEachKindWithItsState() {
    FlowRule warmUp = FlowRule.qps("checkout", 10).withWarmUp(Duration.ofSeconds(10), 3);
    CircuitBreakerRule breaker = CircuitBreakerRule.errorCount("checkout", 1).withMinCalls(1);
    PerValueRule perUser = PerValueRule.qps("checkout", 0, 1);
    fixture.engine.apply(RuleSet.of(List.of(warmUp, breaker, perUser)));
    fixture.call("checkout", 2, "alice");
    fixture.engine.breakers("checkout").get(0).forceOpen();

    JsonNode rules = fixture.get("api/resource/rules?name=checkout").get("rules");

    assertThat(rules).hasSize(3);
    JsonNode flow = find(rules, "flow");
    assertThat(flow.get("rule").get("qps").asDouble()).isEqualTo(10.0);
    assertThat(flow.get("state").get("type").asString()).isEqualTo("warmUp");
    assertThat(flow.get("state").get("cold").asBoolean()).isTrue();
    JsonNode degrade = find(rules, "circuitBreakers");
    assertThat(degrade.get("state").get("state").asString()).isEqualTo("FORCED_OPEN");
    assertThat(degrade.get("state").get("probeInMs").asLong()).isEqualTo(10_000);
    JsonNode hot = find(rules, "perValue");
    assertThat(hot.get("state").get("limitedValues").get(0).asString()).isEqualTo("alice");
  }

  @Test
  void rules_adaptiveConcurrency_showsTheLimitInForce() {
    fixture.engine.apply(RuleSet.of(AdaptiveConcurrencyRule.of("stock").withLimits(7, 1, 50)));

    JsonNode rule = find(fixture.get("api/resource/rules?name=stock").get("rules"),
        "adaptiveConcurrency");

    assertThat(rule.get("rule").get("initialLimit").asInt()).isEqualTo(7);
    assertThat(rule.get("state").get("type").asString()).isEqualTo("adaptiveConcurrency");
    assertThat(rule.get("state").get("limit").asInt()).isEqualTo(7);
    assertThat(rule.get("state").get("inFlight").asInt()).isZero();
  }

  @Test
  void rules_ofACluster_showTheTokenServiceAndTheInstancesSharingTheLimit() {
    applyRules(FlowRule.qps("orders", 10).withCluster(ClusterMode.global("orders")));
    fixture.tokens.connect("shop"); // a second instance

    JsonNode rule = fixture.get("api/resource/rules?name=orders").get("rules").get(0);

    assertThat(rule.get("cluster").get("flowId").asString()).isEqualTo("orders");
    assertThat(rule.get("cluster").get("threshold").asString()).isEqualTo("GLOBAL");
    assertThat(rule.get("cluster").get("instances").asInt()).isEqualTo(2);
    assertThat(rule.get("cluster").get("service").asString()).isNotBlank();
    assertThat(fixture.get("api/overview").get("tokenService").asString()).isNotBlank();
  }

  @Test
  void rules_getReturnsTheRuleDocumentInForce() {
    applyRules(FlowRule.qps("orders", 7));

    HttpResponse<String> response = fixture.send(fixture.authorized("api/rules"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(RuleFormat.parse(response.body())).isEqualTo(fixture.engine.ruleSet());
  }

  @Test
  void rules_put_appliesAtOnceAndLaterCallsAreRefused() {
    applyRules(FlowRule.qps("orders", 100));

    HttpResponse<String> response = fixture.putRules(
        "{\"version\": 1, \"flow\": [{\"resource\": \"orders\", \"qps\": 2}]}");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Fixture.json(response.body()).get("source").asString()).isEqualTo("memory:dashboard");
    assertThat(fixture.engine.rules("orders")).containsExactly(FlowRule.qps("orders", 2));
    assertThat(fixture.call("orders", 5)).isEqualTo(2);
    assertThat(fixture.engine.ruleHistory()).last()
        .satisfies(revision -> assertThat(revision.source()).isEqualTo("memory:dashboard"));
  }

  @Test
  void rules_putWithIfMatch_isRefusedWhenTheRulesChangedSinceTheyWereRead() {
    applyRules(FlowRule.qps("orders", 100));
    String tag = fixture.send(fixture.authorized("api/rules")).headers().firstValue("ETag")
        .orElseThrow();
    applyRules(FlowRule.qps("orders", 50)); // another writer, after the page read the rules

    HttpResponse<String> stale = fixture.send(putWithTag(tag, 2));

    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(Fixture.json(stale.body()).get("error").asString())
        .contains("the rules changed since they were read", tag);
    assertThat(fixture.engine.rules("orders")).containsExactly(FlowRule.qps("orders", 50));

    String fresh = fixture.send(fixture.authorized("api/rules")).headers().firstValue("ETag")
        .orElseThrow();
    assertThat(fixture.send(putWithTag(fresh, 2)).statusCode()).isEqualTo(200);
    assertThat(fixture.engine.rules("orders")).containsExactly(FlowRule.qps("orders", 2));
  }

  private HttpRequest.Builder putWithTag(String tag, int qps) {
    return fixture.authorized("api/rules").header("X-Guard-Dashboard", "1")
        .header("Content-Type", "application/json").header("If-Match", tag)
        .PUT(HttpRequest.BodyPublishers.ofString(
            "{\"version\": 1, \"flow\": [{\"resource\": \"orders\", \"qps\": " + qps + "}]}"));
  }

  @Test
  void rules_putInvalid_answers422WithTheFieldErrorsAndChangesNothing() {
    applyRules(FlowRule.qps("orders", 100));

    HttpResponse<String> response = fixture.putRules(
        "{\"version\": 1, \"flow\": [{\"resource\": \"orders\", \"qps\": -5}, {\"resource\": \"\", \"qps\": 1}]}");

    assertThat(response.statusCode()).isEqualTo(422);
    JsonNode errors = Fixture.json(response.body());
    assertThat(errors.get(0).get("path").asString()).isEqualTo("rules.flow[0].qps");
    assertThat(errors.get(0).get("message").asString()).contains("-5");
    assertThat(errors.get(1).get("path").asString()).isEqualTo("rules.flow[1].resource");
    assertThat(fixture.engine.rules("orders")).containsExactly(FlowRule.qps("orders", 100));
  }

  @Test
  void rules_putRefusedByTheEngine_answers422() {
    HttpResponse<String> response = fixture.putRules("{\"version\": 1, \"origins\": ["
        + "{\"resource\": \"admin\", \"allowOrigins\": [\"ops\"]},"
        + "{\"resource\": \"admin\", \"denyOrigins\": [\"bot\"]}]}");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(Fixture.json(response.body()).get(0).get("message").asString()).isNotBlank();
    assertThat(fixture.engine.rules("admin")).isEmpty();
  }

  @Test
  void rules_putWithTheApplicationsSource_writesThroughIt() {
    RuleSource.Writable source = RuleSources.memory("ops", RuleSet.empty());
    fixture.engine.attach(source, RulePart.all());
    try (GuardDashboard.Server other = GuardDashboard.builder(fixture.engine)
        .accessToken(Fixture.TOKEN).ruleSource(source).build().start()) {
      HttpResponse<String> response = fixture.send(HttpRequest.newBuilder(
              other.uri().resolve("api/rules"))
          .header("Authorization", "Bearer " + Fixture.TOKEN)
          .header("X-Guard-Dashboard", "1").header("Content-Type", "application/json")
          .PUT(HttpRequest.BodyPublishers.ofString(
              "{\"version\": 1, \"flow\": [{\"resource\": \"orders\", \"qps\": 3}]}")));

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(Fixture.json(response.body()).get("source").asString()).isEqualTo("memory:ops");
      assertThat(fixture.engine.ruleHistory().get(fixture.engine.ruleHistory().size() - 1).source())
          .isEqualTo("memory:ops");
      assertThat(fixture.engine.rules("orders")).containsExactly(FlowRule.qps("orders", 3));
    }
  }

  @Test
  void history_listsRevisionsNewestFirstAndRollBackRestoresAnOlderSet() {
    applyRules(FlowRule.qps("orders", 100));
    long first = fixture.engine.ruleHistory().get(0).number();
    fixture.putRules("{\"version\": 1, \"flow\": [{\"resource\": \"orders\", \"qps\": 1}]}");

    JsonNode history = fixture.get("api/history");
    JsonNode older = Fixture.json(fixture.send(
        fixture.authorized("api/history/rules?revision=" + first)).body());
    HttpResponse<String> rolledBack = fixture.send(fixture.authorized(
        "api/history/rollback?revision=" + first).header("X-Guard-Dashboard", "1")
        .POST(HttpRequest.BodyPublishers.noBody()));

    assertThat(history).hasSize(2);
    assertThat(history.get(0).get("source").asString()).isEqualTo("memory:dashboard");
    assertThat(history.get(1).get("number").asLong()).isEqualTo(first);
    assertThat(older.get("flow").get(0).get("qps").asDouble()).isEqualTo(100.0);
    assertThat(rolledBack.statusCode()).isEqualTo(200);
    assertThat(fixture.engine.rules("orders")).containsExactly(FlowRule.qps("orders", 100));
    assertThat(fixture.engine.ruleHistory()).hasSize(3);
  }

  @Test
  void history_rollBackToAnUnknownRevision_answers404() {
    HttpResponse<String> response = fixture.send(fixture.authorized("api/history/rollback?revision=99")
        .header("X-Guard-Dashboard", "1").POST(HttpRequest.BodyPublishers.noBody()));

    assertThat(response.statusCode()).isEqualTo(404);
  }

  @Test
  void overview_namesTheRuleSourceAndTheLatestRevision() {
    applyRules(FlowRule.qps("orders", 1));
    try (Entry ignored = fixture.engine.resource("orders").enter()) {
      JsonNode overview = fixture.get("api/overview");

      assertThat(overview.get("ruleSource").asString()).isEqualTo("memory:dashboard");
      assertThat(overview.get("revision").asLong()).isEqualTo(1);
      assertThat(overview.get("inbound").get("concurrency").asLong()).isZero();
    }
  }

  @Test
  void unknownEndpointOrMethodOrMissingName_answers404Or405Or400() {
    assertThat(fixture.send(fixture.authorized("api/nothing")).statusCode()).isEqualTo(404);
    assertThat(fixture.send(fixture.authorized("api/resources").header("X-Guard-Dashboard", "1")
        .DELETE()).statusCode()).isEqualTo(405);
    assertThat(fixture.send(fixture.authorized("api/resource/metrics")).statusCode())
        .isEqualTo(400);
  }

  @Test
  void badQueryParameters_answer400NamingTheParameterAndTheValue() {
    applyRules(FlowRule.qps("orders", 1));
    String[][] cases = {
        {"api/resources?sort=fastest", "sort", "fastest"},
        {"api/resources?sortBy=refused", "sortBy", "refused"},
        {"api/resource?name=nope", "name", "nope"},
        {"api/resource?name=", "name", ""},
        {"api/resource/rules?name=nope", "name", "nope"},
        {"api/resource/refusals?name=nope", "name", "nope"},
        {"api/resource/metrics?name=nope", "name", "nope"},
        {"api/resource/metrics?name=orders&seconds=0", "seconds", "0"},
        {"api/resource/metrics?name=orders&seconds=3601", "seconds", "3601"},
        {"api/resource/metrics?name=orders&seconds=ten", "seconds", "ten"},
        {"api/resource/metrics?name=orders&seconds=-5", "seconds", "-5"},
        {"api/overview?verbose=1", "verbose", "1"},
        {"api/history?limit=5", "limit", "5"},
        {"api/rules?format=yaml", "format", "yaml"},
        {"api/history/rules?revision=first", "revision", "first"},
    };
    SoftAssertions softly = new SoftAssertions();
    for (String[] bad : cases) {
      HttpResponse<String> response = fixture.send(fixture.authorized(bad[0]));
      softly.assertThat(response.statusCode()).as(bad[0]).isEqualTo(400);
      JsonNode error = Fixture.json(response.body());
      softly.assertThat(error.get("parameter").asString()).as(bad[0]).isEqualTo(bad[1]);
      softly.assertThat(error.get("value").asString()).as(bad[0]).isEqualTo(bad[2]);
      softly.assertThat(error.get("error").asString()).as(bad[0]).contains(bad[1])
          .contains("\"" + bad[2] + "\"");
    }
    softly.assertAll();
  }

  @Test
  void missingRequiredParameter_answers400WithANullValue() {
    HttpResponse<String> response = fixture.send(fixture.authorized("api/history/rules"));

    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode error = Fixture.json(response.body());
    assertThat(error.get("parameter").asString()).isEqualTo("revision");
    assertThat(error.get("value").isNull()).isTrue();
    assertThat(error.get("error").asString()).contains("revision", "missing");
  }

  @Test
  void resourceWithRulesButNoCallsYet_isKnown() {
    applyRules(FlowRule.qps("orders", 1));

    assertThat(fixture.get("api/resource/rules?name=orders").get("rules")).hasSize(1);
    assertThat(fixture.get("api/resource/metrics?name=orders&seconds=3600").get("points"))
        .isEmpty();
    assertThat(fixture.get("api/resources?sort=name").get("sort").asString()).isEqualTo("name");
  }

  private static JsonNode find(JsonNode rules, String kind) {
    for (JsonNode rule : rules) {
      if (rule.get("kind").asString().equals(kind)) {
        return rule;
      }
    }
    throw new AssertionError("no " + kind + " rule in " + rules);
  }

  private static List<String> names(JsonNode rows) {
    List<String> names = new ArrayList<>();
    rows.forEach(row -> names.add(row.get("name").asString()));
    return names;
  }
}
