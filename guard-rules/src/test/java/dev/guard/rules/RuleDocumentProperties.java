package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleError;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.FakeSystemStatus;
import dev.guard.testkit.FlowArbitraries;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Rule documents written from generated rule sets of every kind, then mutated: fields set to
 * values of the wrong type, extreme, non-finite and negative numbers, huge and fractional
 * durations, long and blank strings; fields removed, added and repeated; values nested deep;
 * non-JSON tokens. Every document is either refused with {@link InvalidRulesException} whose
 * errors each name a path, or accepted; an accepted set reads back equal from what {@link
 * RuleFormat#write} makes of it, and an engine on a manual clock takes it (an accepted set always
 * applies) and then answers every call of every resource by passing it or refusing it with a
 * {@code RefusedException}. The outcomes are counted in the jqwik statistics report.
 */
class RuleDocumentProperties {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Marks a string the document text replaces with raw JSON (a token no tree can hold). */
  private static final String RAW = "@raw@";

  private static final List<String> FIELDS = List.of("version", "resource", "qps", "concurrency",
      "origin", "relatedTo", "fromEntrance", "warmUp", "period", "coldFactor", "pacing",
      "maxQueueing", "cluster", "flowId", "threshold", "fallbackToLocal", "window", "buckets",
      "leaseTime", "argumentIndex", "threshold", "burst", "valueType", "exceptions", "value",
      "maxValues", "slowCallRatio", "errorRatio", "errorCount", "slowerThan", "minCalls",
      "openFor", "probes", "probeTimeout", "allowOrigins", "denyOrigins", "maxInboundQps",
      "maxConcurrency", "maxAverageRt", "maxSystemLoad", "maxCpuUsage", "unknownField");

  @Property(tries = 3000)
  void mutatedDocument_isRefusedWithPathsOrAppliesAndAnswersEveryCall(
      @ForAll("documents") String document) {
    RuleSet parsed;
    try {
      parsed = RuleFormat.parse(document);
    } catch (InvalidRulesException refused) {
      assertThat(refused.errors()).isNotEmpty().allSatisfy(RuleDocumentProperties::namesAPath);
      Statistics.label("outcome").collect("rejected by the format");
      return;
    }
    assertThat(RuleFormat.parse(RuleFormat.write(parsed))).isEqualTo(parsed);
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).maxResources(50)
        .systemStatus(new FakeSystemStatus().cpuUsage(0.5).systemLoad(1)).build();
    engine.apply(parsed); // an accepted set always applies
    assertThat(engine.ruleSet()).isEqualTo(parsed);
    Traffic.answerEveryCall(engine, clock, parsed);
    Statistics.label("outcome").collect("accepted and applied");
  }

  private static void namesAPath(RuleError error) {
    assertThat(error.path()).startsWith("rules");
    assertThat(error.message()).isNotBlank()
        .doesNotContain("Feature", "StreamReadConstraints", "`", "jackson");
  }

  @Provide
  Arbitrary<String> documents() {
    Arbitrary<List<Mutation>> mutations = mutation().list().ofMinSize(0).ofMaxSize(4);
    return Combinators.combine(ruleSets(), mutations, textChange())
        .as((rules, changes, text) -> text.apply(mutate(RuleFormat.write(rules), changes)));
  }

  /** A change of the document tree: at the {@code target}-th object, do {@code what}. */
  private record Mutation(int target, int what, String field, JsonNode value) {}

  private Arbitrary<Mutation> mutation() {
    return Combinators.combine(Arbitraries.integers().between(0, 1000),
            Arbitraries.integers().between(0, 3), Arbitraries.of(FIELDS), values())
        .as(Mutation::new);
  }

  private static String mutate(String document, List<Mutation> changes) {
    JsonNode root;
    try {
      root = JSON.readTree(document);
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible);
    }
    for (Mutation change : changes) {
      List<ObjectNode> objects = new ArrayList<>();
      collect(root, objects);
      ObjectNode target = objects.get(change.target() % objects.size());
      switch (change.what()) {
        case 0, 1 -> target.set(change.field(), change.value().deepCopy());
        case 2 -> {
          List<String> names = new ArrayList<>();
          target.fieldNames().forEachRemaining(names::add);
          if (!names.isEmpty()) {
            target.remove(names.get(change.target() % names.size()));
          }
        }
        default -> target.set(change.field(), deep(change.value().deepCopy(), change.target() % 24));
      }
    }
    String text = root.toString();
    return text.replaceAll("\"" + RAW + "([^\"]*)\"", "$1");
  }

  private static void collect(JsonNode node, List<ObjectNode> objects) {
    if (node instanceof ObjectNode object) {
      objects.add(object);
    }
    node.elements().forEachRemaining(child -> collect(child, objects));
  }

  private static JsonNode deep(JsonNode value, int depth) {
    JsonNode nested = value;
    for (int i = 0; i < depth; i++) {
      ArrayNode wrapper = NODES.arrayNode();
      wrapper.add(nested);
      nested = wrapper;
    }
    return nested;
  }

  /** Changes of the text that no tree can express: repeated fields and non-JSON tokens. */
  private Arbitrary<java.util.function.UnaryOperator<String>> textChange() {
    return Arbitraries.of(
        text -> text,
        text -> text,
        text -> text,
        text -> text.replaceFirst("\\{", "{\"version\": 1, "),
        text -> text.replaceFirst("\"resource\"", "\"resource\": \"dup\", \"resource\""),
        text -> text.replaceFirst(": (\\d+)", ": NaN"),
        text -> text.replaceFirst(": (\\d+)", ": 1e400"),
        text -> text.replaceFirst(": (\\d+)", ": -Infinity"),
        text -> text.replaceFirst("\\{", "{ // comment\n"),
        text -> text.replaceFirst("\"", "'"),
        text -> text + " {}",
        text -> text.substring(0, text.length() / 2));
  }

  private Arbitrary<JsonNode> values() {
    Arbitrary<JsonNode> numbers = Arbitraries.of(-1, 0, 1, 2, 3, 255, 256, 1000, 1001,
            Integer.MAX_VALUE, Integer.MIN_VALUE)
        .map(number -> (JsonNode) NODES.numberNode(number));
    Arbitrary<JsonNode> extremes = Arbitraries.of("1e9", "1000000001", "9223372036854775808",
            "1e300", "1e400", "-1e400", "1e-400", "-0.0", "0.5", "1.5", "10000", "10001",
            "16777215", "10000000", "10000001")
        .map(raw -> (JsonNode) NODES.textNode(RAW + raw));
    Arbitrary<JsonNode> durations = Arbitraries.of("PT2562048H", "PT24H", "PT24H0.001S", "P1D",
            "P365D", "PT-1S", "PT0S", "PT0.0005S", "PT0.001S", "PT1S", "PT10S", "PT0.5S",
            "PT9999999999999999H", "PT1000000000000000000S", "10s", "")
        .map(text -> (JsonNode) NODES.textNode(text));
    Arbitrary<JsonNode> others = Arbitraries.of(NODES.textNode("x"), NODES.textNode(" "),
        NODES.textNode("a,b"), NODES.textNode("x".repeat(5000)), NODES.booleanNode(true),
        NODES.booleanNode(false), NODES.nullNode(), NODES.arrayNode(), NODES.objectNode(),
        NODES.textNode("GLOBAL"), NODES.textNode("PER_INSTANCE"), NODES.textNode("int"),
        NODES.textNode("{f}"), NODES.arrayNode().add("a").add(" "),
        NODES.arrayNode().add(NODES.objectNode().put("value", "v").put("threshold", 1)));
    return Arbitraries.oneOf(List.of(numbers, extremes, durations, others));
  }

  /** Rule sets of every kind, from the test kit's flow rules and values near every bound. */
  private Arbitrary<RuleSet> ruleSets() {
    Arbitrary<String> resources = Arbitraries.of("search", "orders", "pay");
    Arbitrary<Rule> flow = resources.flatMap(FlowArbitraries::flowRules).map(rule -> rule);
    Arbitrary<Rule> cluster = Combinators.combine(resources, Arbitraries.of(1, 10, 1000),
            Arbitraries.of(Duration.ofSeconds(1), Duration.ofDays(1)))
        .as((resource, buckets, window) -> FlowRule.qps(resource, 1e9)
            .withCluster(ClusterMode.global("f-" + resource).withWindow(buckets, window)
                .withLeaseTime(Duration.ofDays(1))));
    Arbitrary<Rule> perValue = Combinators.combine(resources,
            Arbitraries.integers().between(-255, 255), Arbitraries.integers().between(0, 100),
            Arbitraries.of(Duration.ofMillis(1), Duration.ofSeconds(1), Duration.ofDays(1)),
            Arbitraries.of(Duration.ZERO, Duration.ofDays(1)))
        .as((resource, index, count, period, queueing) -> (Rule) PerValueRule
            .qps(resource, index, count).withPeriod(period).withPacing(queueing)
            .withException("vip", 3));
    Arbitrary<Rule> breaker = Combinators.combine(resources,
            Arbitraries.of(Duration.ofMillis(1), Duration.ofDays(1)),
            Arbitraries.of(1, 10, 1000), Arbitraries.doubles().between(0, 1))
        .as((resource, duration, buckets, ratio) -> (Rule) CircuitBreakerRule
            .slowCallRatio(resource, duration, ratio).withStatWindow(Duration.ofDays(1), buckets)
            .withOpenFor(duration).withProbes(2, duration));
    Arbitrary<Rule> authority = Combinators.combine(resources, Arbitraries.of(true, false))
        .as((resource, allow) -> allow ? OriginRule.allow(resource, "ops")
            : OriginRule.deny(resource, "bot"));
    Arbitrary<Rule> system = Arbitraries.of(Duration.ZERO, Duration.ofDays(1))
        .map(rt -> (Rule) SystemRule.of().withMaxAverageRt(rt).withMaxInboundQps(1e9)
            .withMaxSystemLoad(10_000).withMaxConcurrency(Integer.MAX_VALUE));
    return Arbitraries.oneOf(List.of(flow, flow, cluster, perValue, breaker, authority, system))
        .list().ofMinSize(1).ofMaxSize(5).map(RuleSet::of);
  }
}
