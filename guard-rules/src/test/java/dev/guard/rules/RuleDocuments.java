package dev.guard.rules;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.testkit.traffic.FlowArbitraries;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rule documents for properties: written from generated rule sets of every kind, then mutated:
 * fields set to values of the wrong type, extreme, non-finite and negative numbers, huge and
 * fractional durations, long and blank strings; fields removed, added and repeated; values nested
 * deep; non-JSON tokens. {@link #documents()} is the base set; {@link #schemaDocuments()} adds
 * rules of every shape and values on the edges the JSON Schema draws (whitespace that Java does
 * or does not call blank, duration spellings, whole numbers written with a fraction, numbers that
 * round onto a bound, exception values of each value type, {@code "$schema"}).
 */
final class RuleDocuments {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Marks a string the document text replaces with raw JSON (a token no tree can hold). */
  private static final String RAW = "@raw@";

  private static final List<String> FIELDS = List.of("version", "resource", "qps", "concurrency",
      "origin", "relatedTo", "fromEntrance", "warmUp", "period", "coldFactor", "pacing",
      "maxQueueing", "cluster", "flowId", "threshold", "fallbackToLocal", "window", "buckets",
      "leaseTime", "argumentIndex", "threshold", "burst", "valueType", "exceptions", "value",
      "maxValues", "quotas", "limit", "slowCallRatio", "errorRatio", "errorCount", "slowerThan", "minCalls",
      "openFor", "probes", "probeTimeout", "allowOrigins", "denyOrigins", "maxInboundQps",
      "maxConcurrency", "maxAverageRt", "maxSystemLoad", "maxCpuUsage", "unknownField");

  private RuleDocuments() {}

  /** Mutated documents from rule sets near every bound. */
  static Arbitrary<String> documents() {
    return documents(ruleSets(baseRules()), FIELDS, values(), 3);
  }

  /** Mutated documents from rule sets of every shape, with values on the schema's edges. */
  static Arbitrary<String> schemaDocuments() {
    List<String> fields = new ArrayList<>(FIELDS);
    fields.add("$schema");
    List<Arbitrary<Rule>> rules = new ArrayList<>(baseRules());
    rules.addAll(moreRules());
    return documents(ruleSets(rules), fields,
        Arbitraries.oneOf(List.of(values(), schemaEdges(), schemaEdges())), 7);
  }

  /**
   * Documents of the sets, each changed by up to four mutations; {@code kinds} 3 sets, removes or
   * nests fields, 7 also replaces the value of a field the object has (6 with a value of the
   * field's own type), sets a field to a value of its type (7) and changes the text less often.
   */
  private static Arbitrary<String> documents(
      Arbitrary<RuleSet> sets, List<String> fields, Arbitrary<JsonNode> values, int kinds) {
    Arbitrary<List<Mutation>> mutations =
        mutation(fields, values, kinds).list().ofMinSize(0).ofMaxSize(4);
    return Combinators.combine(sets, mutations, kinds > 3 ? rareTextChange() : textChange())
        .as((rules, changes, text) ->
            text.apply(mutate(CompactDocuments.of(rules.rules()), changes)));
  }

  /** A change of the document tree: at the {@code target}-th object, do {@code what}. */
  private record Mutation(int target, int what, String field, JsonNode value) {}

  /** Durations, numbers and names that a typed replacement (mutation 6) picks from. */
  private static final List<String> DURATIONS = List.of("PT0S", "PT0.0005S", "PT0.001S",
      "PT0.003S", "PT1S", "PT24H", "PT24H0.001S", "PT-1S", "PT1H-1S", "pt2s", "P1D", "P2D",
      "PT1,5S", "PT9999999999999999H", "PT1000000000000000000S", "PT7S");
  private static final List<String> NUMBERS = List.of("-1", "0", "1", "2", "3", "7", "100",
      "101", "255", "256", "1000", "1001", "-255", "-256", "0.5", "1.5", "1.0", "1e2", "-0.0",
      "16777215", "16777216", "8388608", "10000000", "10000001", "2147483647", "2147483648",
      "1e9", "1000000001", "1.00000000000000001", "-1e-400", "1e400", "9223372036854775808");
  private static final List<String> NAMES = List.of("x", " ", "", "\u00a0", "\u3000", "a,b",
      " a , ,b", "{f}", "GLOBAL", "PER_INSTANCE", "ALL", "int", "long", "string", "boolean",
      "double", "any", "Integer");
  private static final Set<String> DURATION_FIELDS = Set.of("period",
      "maxQueueing", "window", "leaseTime", "slowerThan", "openFor", "probeTimeout",
      "maxAverageRt");
  private static final Set<String> NAME_FIELDS = Set.of("resource", "origin",
      "relatedTo", "fromEntrance", "flowId", "threshold", "valueType", "value", "$schema");

  /** Exception lists a typed replacement of "exceptions" picks from. */
  private static final List<ArrayNode> EXCEPTIONS = List.of(
      NODES.arrayNode().add(exception(NODES.textNode("a"), 1))
          .add(exception(NODES.textNode("a"), 2)),
      NODES.arrayNode().add(exception(NODES.numberNode(1), 1))
          .add(exception(NODES.textNode(RAW + "1.0"), 2)),
      exceptions(NODES.textNode(RAW + "1e400")), exceptions(NODES.textNode(RAW + "16777215")),
      NODES.arrayNode().add(exception(NODES.textNode("a"), 16777215)),
      exceptions(NODES.numberNode(5_000_000_000L)), exceptions(NODES.booleanNode(false)),
      exceptions(NODES.textNode("b")), exceptions(NODES.numberNode(2.5)));

  /** A value of the field's own type (a duration for "period"), near or past its bounds. */
  private static JsonNode typed(String field, int pick, JsonNode otherwise) {
    if (field.equals("exceptions")) {
      return EXCEPTIONS.get(pick % EXCEPTIONS.size()).deepCopy();
    }
    if (DURATION_FIELDS.contains(field)) {
      return NODES.textNode(DURATIONS.get(pick % DURATIONS.size()));
    }
    if (NAME_FIELDS.contains(field) && pick % 3 == 0) {
      return NODES.textNode(NAMES.get(pick % NAMES.size()));
    }
    if (otherwise.isContainer()) {
      return otherwise.deepCopy();
    }
    return NODES.textNode(RAW + NUMBERS.get(pick % NUMBERS.size()));
  }



  private static Arbitrary<Mutation> mutation(
      List<String> fields, Arbitrary<JsonNode> values, int kinds) {
    return Combinators.combine(Arbitraries.integers().between(0, 1000),
            Arbitraries.integers().between(0, kinds), Arbitraries.of(fields), values)
        .as(Mutation::new);
  }

  private static String mutate(String document, List<Mutation> changes) {
    JsonNode root = JSON.readTree(document);
    for (Mutation change : changes) {
      List<ObjectNode> objects = new ArrayList<>();
      collect(root, objects);
      ObjectNode target = objects.get(change.target() % objects.size());
      List<String> names = new ArrayList<>();
      names.addAll(target.propertyNames());
      String existing =
          names.isEmpty() ? change.field() : names.get(change.target() % names.size());
      switch (change.what()) {
        case 0, 1 -> target.set(change.field(), change.value().deepCopy());
        case 2 -> target.remove(existing);
        case 3 -> target.set(change.field(), deep(change.value().deepCopy(), change.target() % 24));
        case 4, 5 -> target.set(existing, change.value().deepCopy());
        case 6 -> target.set(existing, typed(existing, change.target(), change.value()));
        default -> target.set(change.field(), typed(change.field(), change.target(),
            change.value()));
      }
    }
    String text = root.toString();
    return text.replaceAll("\"" + RAW + "([^\"]*)\"", "$1");
  }

  private static void collect(JsonNode node, List<ObjectNode> objects) {
    if (node instanceof ObjectNode object) {
      objects.add(object);
    }
    node.values().forEach(child -> collect(child, objects));
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

  /** Text changes for a fifth of the documents. */
  private static Arbitrary<UnaryOperator<String>> rareTextChange() {
    return Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just(UnaryOperator.<String>identity())),
        Tuple.of(1, textChange()));
  }

  /** Changes of the text that no tree can express: repeated fields and non-JSON tokens. */
  private static Arbitrary<UnaryOperator<String>> textChange() {
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

  private static Arbitrary<JsonNode> values() {
    Arbitrary<JsonNode> numbers = Arbitraries.of(-1, 0, 1, 2, 3, 255, 256, 1000, 1001,
            Integer.MAX_VALUE, Integer.MIN_VALUE)
        .map(number -> (JsonNode) NODES.numberNode(number));
    Arbitrary<JsonNode> extremes = raw("1e9", "1000000001", "9223372036854775808",
        "1e300", "1e400", "-1e400", "1e-400", "-0.0", "0.5", "1.5", "10000", "10001",
        "16777215", "10000000", "10000001");
    Arbitrary<JsonNode> durations = texts("PT2562048H", "PT24H", "PT24H0.001S", "P1D",
        "P365D", "PT-1S", "PT0S", "PT0.0005S", "PT0.001S", "PT1S", "PT10S", "PT0.5S",
        "PT9999999999999999H", "PT1000000000000000000S", "10s", "");
    Arbitrary<JsonNode> others = Arbitraries.of(NODES.textNode("x"), NODES.textNode(" "),
        NODES.textNode("a,b"), NODES.textNode("x".repeat(5000)), NODES.booleanNode(true),
        NODES.booleanNode(false), NODES.nullNode(), NODES.arrayNode(), NODES.objectNode(),
        NODES.textNode("GLOBAL"), NODES.textNode("PER_INSTANCE"), NODES.textNode("int"),
        NODES.textNode("{f}"), NODES.arrayNode().add("a").add(" "),
        NODES.arrayNode().add(NODES.objectNode().put("value", "v").put("threshold", 1)));
    return Arbitraries.oneOf(List.of(numbers, extremes, durations, others));
  }

  /** Values on the edges the schema draws, where a schema and the format could part. */
  private static Arbitrary<JsonNode> schemaEdges() {
    Arbitrary<JsonNode> names = texts("\u00a0", "\u2007", "\u202f", "\u0085", "\u3000",
        "\u2028", "\u001c", "\t", " a ", "a, b", " a , ,b", ",", "a,", "x}", "{", "ops",
        "./rules.schema.json", "string", "long", "double", "boolean", "any", "x".repeat(4096),
        "x".repeat(4097));
    Arbitrary<JsonNode> durations = texts("pt1s", "+PT1S", "-PT-1S", "PT1H-1S", "PT1,5S",
        "PT1.S", "P1DT", "PT", "P", "P-1D", "P1DT1S", "PT1S\n", "PT0.0015S", "PT0.002S",
        "PT0.003S", "PT1.0000000001S", "PT1.000000001S", "PT0.1S", "PT2S", "PT1M", "PT-0.5S",
        "P1Y", "PT1H1M1.5S", "PT24H0.000000001S", "PT86400S", "PT1440M", "P0D");
    Arbitrary<JsonNode> numbers = raw("1.0", "1e2", "1E0", "2.0", "2147483648", "-2147483649",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "9223372036854775808.0", "16777216", "8388608", "-255", "-256", "0.999",
        "1.00000000000000001", "-1e-400", "1000000000.00000000001", "100", "101", "4.9E-324",
        "0.0", "5000000000");
    Arbitrary<JsonNode> objects = Arbitraries.of(
        NODES.objectNode().put("period", "PT1S"),
        NODES.objectNode().put("flowId", "f"),
        NODES.objectNode().put("maxQueueing", "PT0S"),
        NODES.objectNode().putNull("maxQueueing"),
        exceptions(NODES.numberNode(1)), exceptions(NODES.numberNode(1.5)),
        exceptions(NODES.booleanNode(true)), exceptions(NODES.textNode(RAW + "5000000000")),
        exceptions(NODES.textNode(RAW + "9223372036854775808")),
        exceptions(NODES.textNode(RAW + "1.0")), exceptions(NODES.textNode("1")),
        NODES.arrayNode().add(exception(NODES.textNode("a"), 1))
            .add(exception(NODES.textNode("a"), 2)),
        NODES.arrayNode().add(exception(NODES.numberNode(1), 1))
            .add(exception(NODES.textNode(RAW + "1.0"), 2)),
        NODES.arrayNode().add(" a , b").add("c"), NODES.arrayNode().addNull(),
        NODES.arrayNode().add(NODES.nullNode()).add("a"));
    return Arbitraries.oneOf(List.of(names, durations, numbers, numbers, objects));
  }

  private static Arbitrary<JsonNode> raw(String... numbers) {
    return Arbitraries.of(numbers).map(raw -> (JsonNode) NODES.textNode(RAW + raw));
  }

  private static Arbitrary<JsonNode> texts(String... texts) {
    return Arbitraries.of(texts).map(text -> (JsonNode) NODES.textNode(text));
  }

  private static ArrayNode exceptions(JsonNode value) {
    return NODES.arrayNode().add(exception(value, 7));
  }

  private static ObjectNode exception(JsonNode value, int threshold) {
    ObjectNode exception = NODES.objectNode();
    exception.set("value", value);
    return exception.put("threshold", threshold);
  }

  private static Arbitrary<RuleSet> ruleSets(List<Arbitrary<Rule>> kinds) {
    return Arbitraries.oneOf(kinds).list().ofMinSize(1).ofMaxSize(5).map(RuleSet::of);
  }

  private static Arbitrary<String> resources() {
    return Arbitraries.of("search", "orders", "pay");
  }

  /** Rule sets of every kind, from the test kit's flow rules and values near every bound. */
  private static List<Arbitrary<Rule>> baseRules() {
    Arbitrary<String> resources = resources();
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
    Arbitrary<Rule> origins = Combinators.combine(resources, Arbitraries.of(true, false))
        .as((resource, allow) -> allow ? OriginRule.allow(resource, "ops")
            : OriginRule.deny(resource, "bot"));
    Arbitrary<Rule> system = Arbitraries.of(Duration.ZERO, Duration.ofDays(1))
        .map(rt -> (Rule) SystemRule.of().withMaxAverageRt(rt).withMaxInboundQps(1e9)
            .withMaxSystemLoad(10_000).withMaxConcurrency(Integer.MAX_VALUE));
    Arbitrary<Rule> adaptive = Combinators.combine(resources,
            Arbitraries.of(AdaptiveConcurrencyRule.Algorithm.class),
            Arbitraries.of(1, 20, 1_000_000_000), Arbitraries.of(Duration.ofMillis(1),
                Duration.ofDays(1)))
        .as((resource, algorithm, max, duration) -> (Rule) AdaptiveConcurrencyRule.of(resource)
            .withAlgorithm(algorithm).withLimits(1, 1, max).withWindow(duration)
            .withSlowerThan(duration).withShare("live", 0.75).withShare("batch", 0.25));
    Arbitrary<Rule> quota = Combinators.combine(resources, Arbitraries.of(0, 1, 16_777_215),
            Arbitraries.of(Duration.ofMillis(1), Duration.ofMinutes(1), Duration.ofDays(1)))
        .as((resource, limit, period) -> (Rule) FlowRule.qps(resource, 5)
            .withQuota(limit, period).withQuota(1, Duration.ofDays(1)));
    return List.of(flow, flow, cluster, perValue, quota, breaker, origins, system, adaptive);
  }

  /** Rules of the shapes the base set lacks: each strategy, value type and optional field. */
  private static List<Arbitrary<Rule>> moreRules() {
    Arbitrary<String> resources = resources();
    Arbitrary<Rule> flow = resources.flatMap(resource -> Arbitraries.of(
        FlowRule.qps(resource, 5).withOrigin("mobile").withStrategy(FlowRule.Strategy.RELATED, "db"),
        FlowRule.concurrency(resource, 2).withStrategy(FlowRule.Strategy.ENTRANCE, "api"),
        FlowRule.qps(resource, 0.5).withWarmUp(new FlowRule.WarmUp(Duration.ofSeconds(10), 100)),
        FlowRule.concurrency(resource, 3).withCluster(ClusterMode.perInstance("c-" + resource)
            .withFallbackToLocal(false).withWindow(4, Duration.ofMillis(2000))),
        FlowRule.qps(resource, 50).withQuota(1_000, Duration.ofMinutes(1))
            .withQuota(50_000, Duration.ofDays(1)).withOrigin("partner"),
        FlowRule.qps(resource, 1e9).withQuota(16_777_215, Duration.ofMillis(1))
            .withQuota(0, Duration.ofDays(1))
            .withCluster(ClusterMode.global("q-" + resource).withFallbackToLocal(false))));
    Arbitrary<Rule> perValue = resources.flatMap(resource -> Arbitraries.of(
        PerValueRule.concurrency(resource, -1, 2),
        PerValueRule.qps(resource, 0, 10).withBurst(5).withMaxValues(2),
        PerValueRule.qps(resource, 1, 4).withValueType(Long.class).withException(5_000_000_000L, 2),
        PerValueRule.qps(resource, 1, 4).withValueType(Integer.class).withException(7, 1),
        PerValueRule.qps(resource, 2, 4).withValueType(Boolean.class).withException(true, 9),
        PerValueRule.qps(resource, 2, 4).withValueType(Double.class).withException(1.5, 9),
        PerValueRule.qps(resource, 3, 4).withValueType(String.class).withException("a", 1)
            .withException("b", 2),
        PerValueRule.qps(resource, 0, 100).withPeriod(Duration.ofMinutes(1))
            .withQuota(10_000, Duration.ofDays(1)).withQuota(0, Duration.ofMillis(1))
            .withCluster(ClusterMode.global("k-" + resource).withFallbackToLocal(false)),
        PerValueRule.qps(resource, 0, 1).withCluster(ClusterMode.global("k-" + resource))));
    Arbitrary<Rule> breaker = resources.flatMap(resource -> Arbitraries.of(
        CircuitBreakerRule.errorRatio(resource, 0.5).withOpenFor(Duration.ofSeconds(5)),
        CircuitBreakerRule.errorCount(resource, 20).withMinCalls(10)
            .withStatWindow(Duration.ofSeconds(10), 10)));
    Arbitrary<Rule> system = Arbitraries.of(SystemRule.of().withMaxCpuUsage(0.8),
        SystemRule.of().withMaxSystemLoad(4), SystemRule.of());
    return Stream.of(flow, perValue, perValue, breaker, system).toList();
  }
}
