package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;

/** Golden examples of every rule kind: the document, the rules it means, and back. */
class RuleFormatTest {

  static final RuleSet FLOW = RuleSet.of(List.of(
      FlowRule.qps("checkout", 40).withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(10))),
      FlowRule.qps("checkout", 5).withOrigin("batch-jobs"),
      FlowRule.qps("orders", 100).withStrategy(FlowRule.Strategy.RELATED, "db"),
      FlowRule.qps("orders", 20).withOrigin("other")
          .withStrategy(FlowRule.Strategy.ENTRANCE, "public-api"),
      FlowRule.qps("payments", 20).withShaping(FlowRule.Shaping.PACING),
      FlowRule.qps("payments", 0.4).withOrigin("partner")
          .withWarmUp(Duration.ofMinutes(1), 4)
          .withShaping(FlowRule.Shaping.PACING).withMaxQueueingTime(Duration.ZERO),
      FlowRule.concurrency("reports", 4)));

  static final RuleSet BREAKERS = RuleSet.of(List.of(
      CircuitBreakerRule.slowCallRatio("inventory", Duration.ofMillis(300), 0.5).withMinCalls(10)
          .withStatWindow(Duration.ofSeconds(10), 10).withOpenFor(Duration.ofSeconds(5)),
      CircuitBreakerRule.errorCount("mailer", 20).withStatWindow(Duration.ofMinutes(1), 1)
          .withOpenFor(Duration.ofSeconds(30)).withProbes(3, Duration.ofSeconds(2)),
      CircuitBreakerRule.errorRatio("payments", 0.3)));

  static final RuleSet AUTHORITY = RuleSet.of(List.of(
      OriginRule.allow("admin", "ops-console", "billing"),
      OriginRule.deny("search", "scraper")));

  static final RuleSet ADAPTIVE = RuleSet.of(List.of(
      AdaptiveConcurrencyRule.of("inventory"),
      AdaptiveConcurrencyRule.of("search").withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD)
          .withLimits(10, 2, 200).withWindow(Duration.ofMillis(50))
          .withSlowerThan(Duration.ofMillis(250)).withShare("live", 0.9).withShare("batch", 0.1)));

  static final RuleSet SYSTEM = RuleSet.of(List.of(
      SystemRule.of().withMaxInboundQps(5000).withMaxConcurrency(200)
          .withMaxAverageRt(Duration.ofMillis(100)).withMaxSystemLoad(4.5).withMaxCpuUsage(0.8),
      SystemRule.of().withMaxInboundQps(3000)));

  static final RuleSet PER_VALUE = RuleSet.of(List.of(
      PerValueRule.concurrency("export", -1, 2),
      PerValueRule.qps("profile", 0, 5).withBurst(2).withValueType(String.class)
          .withException("vip", 50).withException("bot", 0),
      PerValueRule.qps("reports", 1, 10).withPeriod(Duration.ofMinutes(1))
          .withPacing(Duration.ofSeconds(2)).withException(42, 1).withMaxValues(500)));

  static String golden(String name) {
    try (InputStream in = RuleFormatTest.class.getResourceAsStream("/golden/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void parse_flowGolden_givesItsRules() {
    assertThat(RuleFormat.parse(golden("flow.json"))).isEqualTo(FLOW);
  }

  @Test
  void write_flowRules_givesTheGoldenDocument() {
    assertThat(RuleFormat.write(FLOW)).isEqualTo(golden("flow.json"));
  }

  @Test
  void write_thenParse_givesEqualRules() {
    assertThat(RuleFormat.parse(RuleFormat.write(FLOW))).isEqualTo(FLOW);
  }

  @Test
  void perValueGolden_readsAndWrites() {
    assertThat(RuleFormat.parse(golden("perValue.json"))).isEqualTo(PER_VALUE);
    assertThat(RuleFormat.write(PER_VALUE)).isEqualTo(golden("perValue.json"));
  }

  @Test
  void perValue_exceptionValueOfAnUnwritableType_isRefusedByTheWriter() {
    RuleSet rules = RuleSet.of(List.of(PerValueRule.qps("a", 0, 1).withException(5L, 1)));

    assertThatThrownBy(() -> RuleFormat.write(rules))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("exception value 5 (java.lang.Long) must have a valueType to be written");
  }

  @Test
  void circuitBreakersGolden_readsAndWrites() {
    assertThat(RuleFormat.parse(golden("circuitBreakers.json"))).isEqualTo(BREAKERS);
    assertThat(RuleFormat.write(BREAKERS)).isEqualTo(golden("circuitBreakers.json"));
  }

  @Test
  void authorityGolden_readsAndWrites() {
    assertThat(RuleFormat.parse(golden("origins.json"))).isEqualTo(AUTHORITY);
    assertThat(RuleFormat.write(AUTHORITY)).isEqualTo(golden("origins.json"));
  }

  @Test
  void adaptiveConcurrencyGolden_readsAndWrites() {
    assertThat(RuleFormat.parse(golden("adaptiveConcurrency.json"))).isEqualTo(ADAPTIVE);
    assertThat(RuleFormat.write(ADAPTIVE)).isEqualTo(golden("adaptiveConcurrency.json"));
  }

  @Test
  void systemGolden_readsAndWrites() {
    assertThat(RuleFormat.parse(golden("system.json"))).isEqualTo(SYSTEM);
    assertThat(RuleFormat.write(SYSTEM)).isEqualTo(golden("system.json"));
  }

  @Test
  void everyKindInOneDocument_roundTrips() {
    List<Rule> all = new ArrayList<>(FLOW.rules());
    all.addAll(AUTHORITY.rules());
    all.addAll(PER_VALUE.rules());
    all.addAll(BREAKERS.rules());
    all.addAll(SYSTEM.rules());
    all.addAll(ADAPTIVE.rules());
    RuleSet everything = RuleSet.of(all);

    String json = RuleFormat.write(everything);

    assertThat(RuleFormat.parse(json)).isEqualTo(everything);
    assertThat(json.indexOf("\"flow\"")).isLessThan(json.indexOf("\"circuitBreakers\""));
    assertThat(json.indexOf("\"circuitBreakers\"")).isLessThan(json.indexOf("\"origins\""));
    assertThat(json.indexOf("\"origins\"")).isLessThan(json.indexOf("\"system\""));
  }

  @Test
  void authority_commaListsAndSpaces_readAsTheDslReadsThem() {
    RuleSet rules = RuleFormat.parse(
        "{\"version\": 1, \"origins\": [{\"resource\": \"a\", \"allowOrigins\": [\" x , y\", \"z\"]}]}");

    assertThat(rules.rules()).containsExactly(OriginRule.allow("a", "x", "y", "z"));
  }

  @Test
  void parse_minimalDocument_isTheEmptySet() {
    assertThat(RuleFormat.parse("{\"version\": 1}")).isEqualTo(RuleSet.empty());
    assertThat(RuleFormat.parse("{\"version\": 1, \"flow\": []}")).isEqualTo(RuleSet.empty());
    assertThat(RuleFormat.write(RuleSet.empty())).isEqualTo("{\n  \"version\": 1\n}\n");
  }

  @Test
  void parse_defaults_matchTheDsl() {
    RuleSet rules = RuleFormat.parse("""
        {"version": 1, "flow": [
          {"resource": "a", "qps": 10, "origin": null, "pacing": {}},
          {"resource": "b", "qps": 10, "warmUp": {"period": "PT5S"}}
        ]}""");

    assertThat(rules.rules()).containsExactly(
        FlowRule.qps("a", 10).withShaping(FlowRule.Shaping.PACING),
        FlowRule.qps("b", 10).withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(5))));
  }

  @Test
  void cluster_readsDefaultsAndRoundTrips() {
    RuleSet rules = RuleFormat.parse("""
        {"version": 1, "flow": [
          {"resource": "a", "qps": 10, "cluster": {"flowId": "orders"}},
          {"resource": "b", "qps": 5, "cluster": {"flowId": "b", "threshold": "PER_INSTANCE",
            "fallbackToLocal": false, "window": "PT2S", "buckets": 4, "leaseTime": "PT3S"}}
        ]}""");

    FlowRule full = FlowRule.qps("b", 5).withCluster(ClusterMode.perInstance("b")
        .withFallbackToLocal(false).withWindow(4, Duration.ofSeconds(2))
        .withLeaseTime(Duration.ofSeconds(3)));
    assertThat(rules.rules()).containsExactly(
        FlowRule.qps("a", 10).withCluster(ClusterMode.global("orders")), full);
    assertThat(RuleFormat.parse(RuleFormat.write(rules))).isEqualTo(rules);
  }

  @Test
  void cluster_invalidFields_areReportedWithTheirPaths() {
    assertThatThrownBy(() -> RuleFormat.parse("""
        {"version": 1, "flow": [
          {"resource": "a", "qps": 10, "cluster": {"threshold": "ALL", "fallbackToLocal": 1,
            "window": "PT1S", "buckets": 3}},
          {"resource": "c", "qps": 2, "warmUp": {"period": "PT5S"}, "cluster": {"flowId": "c"}},
          {"resource": "d", "qps": 2, "pacing": {}, "cluster": {"flowId": "d"}}
        ]}"""))
        .hasMessageContaining("rules.flow[0].cluster.flowId: is required")
        .hasMessageContaining("rules.flow[0].cluster.threshold: must be GLOBAL or PER_INSTANCE")
        .hasMessageContaining("rules.flow[0].cluster.fallbackToLocal: must be true or false")
        .hasMessageContaining("rules.flow[0].cluster.window: must be whole milliseconds")
        .hasMessageContaining("rules.flow[1].warmUp: must be null for a cluster rule")
        .hasMessageContaining("rules.flow[2].pacing: must be REFUSE for a cluster rule");
  }

  @Test
  void cluster_concurrencyRule_roundTrips() {
    RuleSet rules = RuleFormat.parse("""
        {"version": 1, "flow": [
          {"resource": "export", "concurrency": 4, "cluster": {"flowId": "export"}}
        ]}""");
    FlowRule expected = FlowRule.concurrency("export", 4).withCluster(ClusterMode.global("export"));
    assertThat(rules.rules()).containsExactly(expected);
    assertThat(RuleFormat.parse(RuleFormat.write(rules)).rules()).containsExactly(expected);
  }

  @Test
  void flowQuotas_roundTrip_andTheDocumentConformsToTheSchema() throws Exception {
    String document = """
        {"version": 1, "flow": [
          {"resource": "partnerApi", "qps": 50, "quotas": [
            {"limit": 1000, "period": "PT1M"}, {"limit": 50000, "period": "P1D"}],
           "cluster": {"flowId": "partner-api"}}
        ]}""";
    RuleSet rules = RuleFormat.parse(document);

    FlowRule expected = FlowRule.qps("partnerApi", 50).withQuota(1_000, Duration.ofMinutes(1))
        .withQuota(50_000, Duration.ofDays(1)).withCluster(ClusterMode.global("partner-api"));
    assertThat(rules.rules()).containsExactly(expected);
    String written = RuleFormat.write(rules);
    assertThat(RuleFormat.parse(written).rules()).containsExactly(expected);
    assertThat(RuleSchema.errors(new ObjectMapper()
        .readTree(written))).isEmpty();
    assertThat(RuleSchema.errors(new ObjectMapper()
        .readTree(document.replace("\"qps\": 50,", "\"qps\": 50, \"pacing\": {},"))))
        .isNotEmpty();
  }

  @Test
  void quotasInTheSchema_aNullPeriodIsRefused_anEmptyListIsNone() throws Exception {
    ObjectMapper json = new ObjectMapper();
    String nullPeriod = """
        {"version": 1, "flow": [{"resource": "a", "qps": 5,
          "quotas": [{"limit": 1, "period": null}]}]}""";
    assertThat(RuleSchema.errors(json.readTree(nullPeriod))).isNotEmpty();
    assertThatThrownBy(() -> RuleFormat.parse(nullPeriod))
        .hasMessageContaining("rules.flow[0].quotas[0].period: is required");

    String emptyAndPaced = """
        {"version": 1, "flow": [{"resource": "a", "qps": 5, "pacing": {}, "quotas": []}],
         "perValue": [{"resource": "a", "argumentIndex": 0, "threshold": 5, "pacing": {},
          "quotas": []}]}""";
    assertThat(RuleSchema.errors(json.readTree(emptyAndPaced))).isEmpty();
    assertThat(RuleFormat.parse(emptyAndPaced).rules()).hasSize(2);
  }

  @Test
  void parse_keepsTheOrderOfOneResourcesRules() {
    RuleSet rules = RuleFormat.parse("""
        {"version": 1, "flow": [
          {"resource": "b", "qps": 2}, {"resource": "a", "qps": 9}, {"resource": "b", "qps": 1}
        ]}""");

    assertThat(rules.rulesOf("b")).containsExactly(FlowRule.qps("b", 2), FlowRule.qps("b", 1));
  }

  @Test
  void write_ruleOfAKindWithoutFormat_isRefused() {
    Rule custom = () -> "x";

    assertThatThrownBy(() -> RuleFormat.write(RuleSet.of(List.of(custom))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("rule must be of a kind the rule format knows");
  }
}
