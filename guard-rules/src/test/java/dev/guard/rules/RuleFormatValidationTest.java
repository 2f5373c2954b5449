package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.internal.RuleLimits;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every validation error of every field, with its path and the value as written. */
class RuleFormatValidationTest {

  static List<String> errors(String json) {
    InvalidRulesException refused = catchThrowableOfType(
        InvalidRulesException.class, () -> RuleFormat.parse(json));
    assertThat(refused).as("refused: " + json).isNotNull();
    return refused.errors().stream().map(InvalidRulesException.Error::toString).toList();
  }

  static List<String> flowErrors(String rule) {
    return errors("{\"version\": 1, \"flow\": [{\"resource\": \"ok\", \"qps\": 1}, " + rule + "]}");
  }

  static Stream<Arguments> flowFields() {
    String at = "rules.flow[1].";
    return Stream.of(
        Arguments.of("{\"qps\": 1}", List.of(at + "resource: is required")),
        Arguments.of("{\"resource\": \" \", \"qps\": 1}",
            List.of(at + "resource: must not be blank, was \" \"")),
        Arguments.of("{\"resource\": 7, \"qps\": 1}",
            List.of(at + "resource: must be a string, was 7")),
        Arguments.of("{\"resource\": \"a\"}",
            List.of("rules.flow[1]: needs \"qps\" or \"concurrency\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": -5}",
            List.of(at + "qps: must be finite and >= 0, was -5")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1e999}",
            List.of(at + "qps: must be a finite number, was 1E+999")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1000000000000}",
            List.of(at + "qps: must be at most 1000000000, was 1000000000000")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": {\"period\": \"PT2562048H\"}}",
            List.of(at + "warmUp.period: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": {\"period\": \"PT1S\", "
                + "\"coldFactor\": 2147483647}}",
            List.of(at + "warmUp.coldFactor: must be at most 100, was 2147483647")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"pacing\": {\"maxQueueing\": \"PT25H\"}}",
            List.of(at + "pacing.maxQueueing: must be at most PT24H, was \"PT25H\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"cluster\": {\"flowId\": \"f\", "
                + "\"window\": \"PT2562048H\"}}",
            List.of(at + "cluster.window: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"cluster\": {\"flowId\": \"f\", "
                + "\"window\": \"PT20S\", \"buckets\": 20000}}",
            List.of(at + "cluster.buckets: must be at most 1000, was 20000")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"cluster\": {\"flowId\": \"f\", "
                + "\"leaseTime\": \"PT2562048H\"}}",
            List.of(at + "cluster.leaseTime: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": \"5\"}",
            List.of(at + "qps: must be a number, was \"5\"")),
        Arguments.of("{\"resource\": \"a\", \"concurrency\": -1}",
            List.of(at + "concurrency: must be finite and >= 0, was -1")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"concurrency\": 1}",
            List.of(at + "concurrency: must not be given with qps: a rule limits one or the other")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"origin\": false}",
            List.of(at + "origin: must be a string, was false")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"relatedTo\": \"\"}",
            List.of(at + "relatedTo: must not be blank, was \"\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"fromEntrance\": \"  \"}",
            List.of(at + "fromEntrance: must not be blank, was \"  \"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"relatedTo\": \"b\", \"fromEntrance\": \"c\"}",
            List.of(at + "fromEntrance: must not be given with relatedTo: a rule measures one or "
                + "the other")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": \"PT10S\"}",
            List.of(at + "warmUp: must be an object, was \"PT10S\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": {}}",
            List.of(at + "warmUp.period: is required")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": {\"period\": \"10s\"}}",
            List.of(at + "warmUp.period: must be an ISO-8601 duration such as \"PT10S\" or "
                + "\"PT0.5S\", was \"10s\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": {\"period\": \"PT0S\"}}",
            List.of(at + "warmUp.period: must be positive, was \"PT0S\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": {\"period\": \"PT1S\", "
                + "\"coldFactor\": 1}}",
            List.of(at + "warmUp.coldFactor: must be > 1, was 1")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": {\"period\": \"PT1S\", "
                + "\"coldFactor\": 2.5}}",
            List.of(at + "warmUp.coldFactor: must be a whole number, was 2.5")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"warmUp\": {\"period\": \"PT1S\", "
                + "\"cold\": 2}}",
            List.of(at + "warmUp.cold: is not a field here; the fields are [period, coldFactor]")),
        Arguments.of("{\"resource\": \"a\", \"concurrency\": 1, \"warmUp\": {\"period\": \"PT1S\"}}",
            List.of(at + "warmUp: must be null for metric CONCURRENCY (warm-up needs a rate), was "
                + "{\"period\":\"PT1S\"}")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"pacing\": true}",
            List.of(at + "pacing: must be an object, was true")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"pacing\": {\"maxQueueing\": \"-PT1S\"}}",
            List.of(at + "pacing.maxQueueing: must not be negative, was \"-PT1S\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"pacing\": {\"maxQueueing\": 5}}",
            List.of(at + "pacing.maxQueueing: must be an ISO-8601 duration such as \"PT10S\" or "
                + "\"PT0.5S\", was 5")),
        Arguments.of("{\"resource\": \"a\", \"concurrency\": 1, \"pacing\": {}}",
            List.of(at + "pacing: must be REFUSE for metric CONCURRENCY (shaping needs a rate), "
                + "was {}")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"threshold\": 1}",
            List.of(at + "threshold: is not a field here; the fields are [resource, qps, concurrency, "
                + "origin, relatedTo, fromEntrance, warmUp, pacing, cluster, quotas]")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, "
                + "\"quotas\": [{\"limit\": -1, \"period\": \"PT1M\"}, {\"limit\": 5}]}",
            List.of(at + "quotas[0].limit: must be >= 0, was -1",
                at + "quotas[1].period: is required")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, "
                + "\"quotas\": [{\"limit\": 16777216, \"period\": \"PT0.0005S\"}]}",
            List.of(at + "quotas[0].limit: must be at most 16777215, was 16777216",
                at + "quotas[0].period: must be whole milliseconds from 1 ms to 1 day, was"
                    + " \"PT0.0005S\"")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"pacing\": {}, "
                + "\"quotas\": [{\"limit\": 5, \"period\": \"PT1H\"}]}",
            List.of(at + "quotas: must be empty unless the rule has metric QPS, strategy DIRECT,"
                + " shaping REFUSE and no warm-up (was QPS, DIRECT, PACING), was"
                + " [{\"limit\":5,\"period\":\"PT1H\"}]")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, \"relatedTo\": \"b\", "
                + "\"quotas\": [{\"limit\": 5, \"period\": \"PT1H\"}]}",
            List.of(at + "quotas: must be empty unless the rule has metric QPS, strategy DIRECT,"
                + " shaping REFUSE and no warm-up (was QPS, RELATED, REFUSE), was"
                + " [{\"limit\":5,\"period\":\"PT1H\"}]")),
        Arguments.of("{\"resource\": \"a\", \"qps\": 1, "
                + "\"cluster\": {\"flowId\": \"f\", \"threshold\": \"PER_INSTANCE\"}, "
                + "\"quotas\": [{\"limit\": 5, \"period\": \"PT1H\"}]}",
            List.of(at + "cluster.threshold: must be GLOBAL for a rule with quotas (its quotas are"
                + " shared, whatever the instances), was \"PER_INSTANCE\"")),
        Arguments.of("[]", List.of("rules.flow[1]: must be an object, was []")));
  }

  @ParameterizedTest
  @MethodSource("flowFields")
  void parse_invalidFlowField_reportsPathAndValue(String rule, List<String> expected) {
    assertThat(flowErrors(rule)).containsExactlyElementsOf(expected);
  }

  @Test
  void parse_reportsEveryErrorAtOnce() {
    List<String> errors = errors("""
        {"version": 1, "flow": [
          {"resource": "a", "qps": 1},
          {"resource": "", "qps": -5, "warmUp": {"period": "PT0S", "coldFactor": 0}},
          {"resource": "b", "concurrency": 2, "pacing": {"maxQueueing": "PT1S"}}
        ], "flw": []}""");

    assertThat(errors).containsExactly(
        "rules.flow[1].resource: must not be blank, was \"\"",
        "rules.flow[1].qps: must be finite and >= 0, was -5",
        "rules.flow[1].warmUp.period: must be positive, was \"PT0S\"",
        "rules.flow[1].warmUp.coldFactor: must be > 1, was 0",
        "rules.flow[2].pacing: must be REFUSE for metric CONCURRENCY (shaping needs a rate), was "
            + "{\"maxQueueing\":\"PT1S\"}",
        "rules.flw: is not a field here; the fields are [version, flow, perValue, circuitBreakers, origins, system, adaptiveConcurrency, $schema]");
  }

  static Stream<Arguments> perValueFields() {
    String at = "rules.perValue[0].";
    return Stream.of(
        Arguments.of("{\"argumentIndex\": 0, \"threshold\": 1}", List.of(at + "resource: is required")),
        Arguments.of("{\"resource\": \"r\", \"threshold\": 1}",
            List.of(at + "argumentIndex: is required")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0}",
            List.of("rules.perValue[0]: needs \"threshold\" or \"concurrency\"")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": -1}",
            List.of(at + "threshold: must be >= 0, was -1")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, \"burst\": -1}",
            List.of(at + "burst: must be >= 0, was -1")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, \"period\": \"PT0.0005S\"}",
            List.of(at + "period: must be whole milliseconds from 1 ms to 1 day, was \"PT0.0005S\"")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"concurrency\": 1, \"burst\": 1}",
            List.of(at + "burst: must be 0 unless the rule is a QPS token bucket (metric QPS, "
                + "shaping REFUSE), was 1")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, \"valueType\": \"java.lang.Runtime\"}",
            List.of(at + "valueType: must be one of \"string\", \"int\", \"long\", \"double\", "
                + "\"boolean\" or \"any\", was \"java.lang.Runtime\"")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, \"valueType\": \"int\", "
                + "\"exceptions\": [{\"value\": \"x\", \"threshold\": 1}]}",
            List.of(at + "exceptions[0].value: must be a int, was \"x\"")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"exceptions\": [{\"value\": \"x\", \"threshold\": -3}]}",
            List.of(at + "exceptions[0].threshold: must be >= 0, was -3")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"exceptions\": [{\"value\": \"x\", \"threshold\": 1}, {\"value\": \"x\", \"threshold\": 2}]}",
            List.of(at + "exceptions[1].value: must differ from the other exceptions' values, "
                + "was \"x\"")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, \"maxValues\": 1}",
            List.of(at + "maxValues: must be >= 2, was 1")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"maxValues\": 2000000000}",
            List.of(at + "maxValues: must be at most 10000000, was 2000000000")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": -2147483648, \"threshold\": 1}",
            List.of(at + "argumentIndex: must be from -255 to 255, was -2147483648")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"period\": \"PT2562048H\"}",
            List.of(at + "period: must be whole milliseconds from 1 ms to 1 day, was "
                + "\"PT2562048H\"")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"pacing\": {\"maxQueueing\": \"PT2562048H\"}}",
            List.of(at + "pacing.maxQueueing: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, \"valueType\": "
                + "\"double\", \"exceptions\": [{\"value\": 1e400, \"threshold\": 1}]}",
            List.of(at + "exceptions[0].value: must be a finite number, was 1E+400")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"quotas\": [{\"limit\": -1, \"period\": \"PT1M\"}, {\"limit\": 5}]}",
            List.of(at + "quotas[0].limit: must be >= 0, was -1",
                at + "quotas[1].period: is required")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"quotas\": [{\"limit\": 5, \"period\": \"P2D\"}]}",
            List.of(at + "quotas[0].period: must be whole milliseconds from 1 ms to 1 day, was"
                + " \"P2D\"")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"pacing\": {}, \"quotas\": [{\"limit\": 5, \"period\": \"PT1H\"}]}",
            List.of(at + "quotas: must be empty unless the rule is a QPS token bucket (metric QPS,"
                + " shaping REFUSE), was [{\"limit\":5,\"period\":\"PT1H\"}]")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"concurrency\": 1, "
                + "\"cluster\": {\"flowId\": \"keys\"}}",
            List.of(at + "cluster: must be null unless the rule is a QPS token bucket (metric QPS,"
                + " shaping REFUSE): a token service shares buckets, not pacing schedules or"
                + " running calls, was {\"flowId\":\"keys\"}")),
        Arguments.of("{\"resource\": \"r\", \"argumentIndex\": 0, \"threshold\": 1, "
                + "\"cluster\": {\"flowId\": \"a{b\", \"window\": \"PT1M\"}}",
            List.of(at + "cluster.flowId: must not contain '{' or '}' (a token service may use"
                + " them to keep a flow id's keys together), was \"a{b\"",
                at + "cluster.window: is not a field here; the fields are [flowId,"
                + " fallbackToLocal]")));
  }

  @ParameterizedTest
  @MethodSource("perValueFields")
  void parse_invalidPerValueField_reportsPathAndValue(String rule, List<String> expected) {
    assertThat(errors("{\"version\": 1, \"perValue\": [" + rule + "]}"))
        .containsExactlyElementsOf(expected);
  }

  static Stream<Arguments> breakerFields() {
    String at = "rules.circuitBreakers[0].";
    return Stream.of(
        Arguments.of("{\"errorRatio\": 0.5}", List.of(at + "resource: is required")),
        Arguments.of("{\"resource\": \"r\"}",
            List.of("rules.circuitBreakers[0]: needs \"slowCallRatio\", \"errorRatio\" or "
                + "\"errorCount\"")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"errorCount\": 3}",
            List.of(at + "errorCount: must not be given with errorRatio: a circuit breaker has one "
                + "strategy")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 1.5}",
            List.of(at + "errorRatio: must be a ratio in [0, 1] for strategy ERROR_RATIO, was 1.5")),
        Arguments.of("{\"resource\": \"r\", \"errorCount\": -1}",
            List.of(at + "errorCount: must be finite and >= 0, was -1")),
        Arguments.of("{\"resource\": \"r\", \"slowCallRatio\": 0.5}",
            List.of(at + "slowerThan: is required")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"slowerThan\": \"PT1S\"}",
            List.of(at + "slowerThan: applies to slowCallRatio only")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"minCalls\": 0}",
            List.of(at + "minCalls: must be > 0, was 0")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"openFor\": \"PT0.0005S\"}",
            List.of(at + "openFor: must be whole milliseconds, was \"PT0.0005S\"")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"window\": \"PT0.015S\"}",
            List.of(at + "buckets: must divide window (15 ms) into whole milliseconds, was "
                + "10")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"probes\": 0}",
            List.of(at + "probes: must be > 0, was 0")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"openFor\": \"PT2562048H\"}",
            List.of(at + "openFor: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"window\": \"PT2562048H\"}",
            List.of(at + "window: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"probeTimeout\": \"PT2562048H\"}",
            List.of(at + "probeTimeout: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"resource\": \"r\", \"slowCallRatio\": 0.5, \"slowerThan\": \"PT2562048H\"}",
            List.of(at + "slowerThan: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"resource\": \"r\", \"errorCount\": 1e12}",
            List.of(at + "errorCount: must be at most 1000000000, was 1E+12")),
        Arguments.of("{\"resource\": \"r\", \"errorCount\": 1000000000000.0}",
            List.of(at + "errorCount: must be at most 1000000000, was 1E+12")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"window\": \"PT20S\", "
                + "\"buckets\": 20000}",
            List.of(at + "buckets: must be at most 1000, was 20000")),
        Arguments.of("{\"resource\": \"r\", \"errorRatio\": 0.5, \"open\": \"PT1S\"}",
            List.of(at + "open: is not a field here; the fields are [resource, slowCallRatio, "
                + "errorRatio, errorCount, slowerThan, minCalls, window, buckets, openFor, probes, "
                + "probeTimeout]")));
  }

  @ParameterizedTest
  @MethodSource("breakerFields")
  void parse_invalidCircuitBreakerField_reportsPathAndValue(String rule, List<String> expected) {
    assertThat(errors("{\"version\": 1, \"circuitBreakers\": [" + rule + "]}"))
        .containsExactlyElementsOf(expected);
  }

  static Stream<Arguments> originFields() {
    String at = "rules.origins[0].";
    return Stream.of(
        Arguments.of("{\"allowOrigins\": [\"a\"]}", List.of(at + "resource: is required")),
        Arguments.of("{\"resource\": \"\", \"allowOrigins\": [\"a\"]}",
            List.of(at + "resource: must not be blank, was \"\"")),
        Arguments.of("{\"resource\": \"r\"}",
            List.of("rules.origins[0]: needs \"allowOrigins\" or \"denyOrigins\"")),
        Arguments.of("{\"resource\": \"r\", \"allowOrigins\": [\"a\"], \"denyOrigins\": [\"b\"]}",
            List.of(at + "denyOrigins: must not be given with allowOrigins: a rule allows or "
                + "denies")),
        Arguments.of("{\"resource\": \"r\", \"allowOrigins\": []}",
            List.of(at + "allowOrigins: must list at least one origin, was []")),
        Arguments.of("{\"resource\": \"r\", \"denyOrigins\": [\"a,\"]}",
            List.of(at + "denyOrigins: must not contain a blank name, was [\"a,\"]")),
        Arguments.of("{\"resource\": \"r\", \"denyOrigins\": \"a\"}",
            List.of(at + "denyOrigins: must be a list of strings, was \"a\"")),
        Arguments.of("{\"resource\": \"r\", \"denyOrigins\": [1]}",
            List.of(at + "denyOrigins: must be a list of strings, was [1]")),
        Arguments.of("{\"resource\": \"r\", \"allowOrigins\": [\"a\"], \"origins\": 1}",
            List.of(at + "origins: is not a field here; the fields are [resource, allowOrigins, "
                + "denyOrigins]")));
  }

  @ParameterizedTest
  @MethodSource("originFields")
  void parse_invalidAuthorityField_reportsPathAndValue(String rule, List<String> expected) {
    assertThat(errors("{\"version\": 1, \"origins\": [" + rule + "]}"))
        .containsExactlyElementsOf(expected);
  }

  @Test
  void parse_secondOriginRuleForOneResource_isRefusedAtItsResource() {
    String document = "{\"version\": 1, \"origins\": ["
        + "{\"resource\": \"r\", \"allowOrigins\": [\"a\"]},"
        + "{\"resource\": \"r\", \"allowOrigins\": [\"a\"]},"
        + "{\"resource\": \"r\", \"denyOrigins\": [\"b\"]}]}";

    assertThat(errors(document)).containsExactly("rules.origins[2].resource: 'r' already has 1 "
        + "origin rule: list every origin in that one rule (at most 1 per resource)");
  }

  static Stream<Arguments> adaptiveFields() {
    String at = "rules.adaptiveConcurrency[0].";
    return Stream.of(
        Arguments.of("{\"minLimit\": 2}", List.of(at + "resource: is required")),
        Arguments.of("{\"resource\": \"r\", \"algorithm\": \"vegas\"}",
            List.of(at + "algorithm: must be \"gradient\" or \"aimd\", was \"vegas\"")),
        Arguments.of("{\"resource\": \"r\", \"minLimit\": 0}",
            List.of(at + "minLimit: must be > 0, was 0")),
        Arguments.of("{\"resource\": \"r\", \"minLimit\": 30}",
            List.of(at + "initialLimit: must be in [minLimit, maxLimit] = [30, 1000], was 20")),
        Arguments.of("{\"resource\": \"r\", \"initialLimit\": 5, \"maxLimit\": 4}",
            List.of(at + "initialLimit: must be in [minLimit, maxLimit] = [1, 4], was 5")),
        Arguments.of("{\"resource\": \"r\", \"minLimit\": 5, \"maxLimit\": 4}",
            List.of(at + "maxLimit: must be >= minLimit (5), was 4")),
        Arguments.of("{\"resource\": \"r\", \"maxLimit\": 2.5}",
            List.of(at + "maxLimit: must be a whole number, was 2.5")),
        Arguments.of("{\"resource\": \"r\", \"window\": \"PT0S\"}",
            List.of(at + "window: must be positive, was \"PT0S\"")),
        Arguments.of("{\"resource\": \"r\", \"slowerThan\": \"PT48H\"}",
            List.of(at + "slowerThan: must be at most PT24H, was \"PT48H\"")),
        Arguments.of("{\"resource\": \"r\", \"shares\": {\"live\": 0.9, \"batch\": 0.2}}",
            List.of(at + "shares: must sum to at most 1, was {\"live\":0.9,\"batch\":0.2}")),
        Arguments.of("{\"resource\": \"r\", \"shares\": {\"live\": 0, \"batch\": \"x\"}}",
            List.of(at + "shares.live: must be in (0, 1], was 0",
                at + "shares.batch: must be a number, was \"x\"")),
        Arguments.of("{\"resource\": \"r\", \"shares\": [\"live\"]}",
            List.of(at + "shares: must be an object, was [\"live\"]")),
        Arguments.of("{\"resource\": \"r\", \"limit\": 5}",
            List.of(at + "limit: is not a field here; the fields are [resource, algorithm, "
                + "initialLimit, minLimit, maxLimit, window, slowerThan, shares]")));
  }

  @ParameterizedTest
  @MethodSource("adaptiveFields")
  void parse_invalidAdaptiveConcurrencyField_reportsPathAndValue(String rule,
      List<String> expected) {
    assertThat(errors("{\"version\": 1, \"adaptiveConcurrency\": [" + rule + "]}"))
        .containsExactlyElementsOf(expected);
  }

  @Test
  void parse_secondAdaptiveRuleForOneResource_isRefusedAtItsResource() {
    String document = "{\"version\": 1, \"adaptiveConcurrency\": ["
        + "{\"resource\": \"r\"}, {\"resource\": \"r\", \"maxLimit\": 50}]}";

    assertThat(errors(document)).containsExactly("rules.adaptiveConcurrency[1].resource: 'r' "
        + "already has 1 adaptiveConcurrency rule (at most 1 per resource)");
  }

  @Test
  void parse_perValueRulesOverTheResourceLimit_isRefusedAtTheFirstOneOver() {
    StringBuilder rules = new StringBuilder();
    for (int i = 0; i <= RuleLimits.MAX_PER_VALUE_RULES_PER_RESOURCE; i++) {
      rules.append(i == 0 ? "" : ",").append("{\"resource\": \"r\", \"argumentIndex\": 0, "
          + "\"threshold\": ").append(i + 1).append("}");
    }

    assertThat(errors("{\"version\": 1, \"perValue\": [" + rules + "]}")).containsExactly(
        "rules.perValue[64].resource: 'r' already has 64 perValue rules (at most 64 per resource)");
  }

  static Stream<Arguments> systemFields() {
    String at = "rules.system[0].";
    return Stream.of(
        Arguments.of("{\"maxInboundQps\": -1}",
            List.of(at + "maxInboundQps: must be finite and >= 0, was -1")),
        Arguments.of("{\"maxInboundQps\": \"9\"}",
            List.of(at + "maxInboundQps: must be a number, was \"9\"")),
        Arguments.of("{\"maxConcurrency\": -2}",
            List.of(at + "maxConcurrency: must be >= 0, was -2")),
        Arguments.of("{\"maxConcurrency\": 1.5}",
            List.of(at + "maxConcurrency: must be a whole number, was 1.5")),
        Arguments.of("{\"maxAverageRt\": \"-PT1S\"}",
            List.of(at + "maxAverageRt: must not be negative, was \"-PT1S\"")),
        Arguments.of("{\"maxAverageRt\": 100}",
            List.of(at + "maxAverageRt: must be an ISO-8601 duration such as \"PT10S\" or "
                + "\"PT0.5S\", was 100")),
        Arguments.of("{\"maxSystemLoad\": -0.5}",
            List.of(at + "maxSystemLoad: must be finite and >= 0, was -0.5")),
        Arguments.of("{\"maxCpuUsage\": 1.5}",
            List.of(at + "maxCpuUsage: must be in [0, 1], was 1.5")),
        Arguments.of("{\"maxAverageRt\": \"PT2562048H\"}",
            List.of(at + "maxAverageRt: must be at most PT24H, was \"PT2562048H\"")),
        Arguments.of("{\"maxInboundQps\": 1e300}",
            List.of(at + "maxInboundQps: must be at most 1000000000, was 1E+300")),
        Arguments.of("{\"maxSystemLoad\": 20000}",
            List.of(at + "maxSystemLoad: must be at most 10000, was 20000")),
        Arguments.of("{\"resource\": \"x\"}",
            List.of(at + "resource: is not a field here; the fields are [maxInboundQps, "
                + "maxConcurrency, maxAverageRt, maxSystemLoad, maxCpuUsage]")),
        Arguments.of("{\"maxInboundQps\": -1, \"maxCpuUsage\": 2}",
            List.of(at + "maxInboundQps: must be finite and >= 0, was -1",
                at + "maxCpuUsage: must be in [0, 1], was 2")));
  }

  @ParameterizedTest
  @MethodSource("systemFields")
  void parse_invalidSystemField_reportsPathAndValue(String rule, List<String> expected) {
    assertThat(errors("{\"version\": 1, \"system\": [" + rule + "]}"))
        .containsExactlyElementsOf(expected);
  }

  static Stream<Arguments> documents() {
    return Stream.of(
        Arguments.of("", "rules: the document is empty"),
        Arguments.of("   \n", "rules: the document is empty"),
        Arguments.of("[]", "rules: must be a JSON object, was []"),
        Arguments.of("42", "rules: must be a JSON object, was 42"),
        Arguments.of("{}", "rules.version: is required"),
        Arguments.of("{\"version\": 2}",
            "rules.version: must be 1 (the only version this guard reads), was 2"),
        Arguments.of("{\"version\": \"1\"}", "rules.version: must be a whole number, was \"1\""),
        Arguments.of("{\"version\": 1, \"flow\": {}}", "rules.flow: must be a list of rules, was {}"),
        Arguments.of("{\"version\": 1, \"flow\": {}}",
            "rules.flow: must be a list of rules, was {}"));
  }

  @ParameterizedTest
  @MethodSource("documents")
  void parse_invalidDocument_reportsWhy(String json, String expected) {
    assertThat(errors(json)).containsExactly(expected);
  }

  static Stream<Arguments> syntax() {
    return Stream.of(
        Arguments.of("{\"version\": 1, \"version\": 1}",
            "rules.version: must not repeat the field \"version\" in one object (line 1, column 25)"),
        Arguments.of("{\"version\": 1} {}",
            "rules: is not valid JSON: there is more after the document's object (line 1, column"),
        Arguments.of("{\"version\": 1,\n \"flow\": [",
            "rules.flow[0]: is not valid JSON: the document ends inside a value (line 2, column 11)"),
        Arguments.of("{\"version\": 1, 'flow': []}",
            "rules: is not valid JSON: field names must be in double quotes, found ''' (line 1, column 17)"),
        Arguments.of("{\"version\": 1, \"flow\": [{\"qps\": NaN}]}",
            "rules.flow[0].qps: must be a finite number, was NaN (line 1, column"),
        Arguments.of("{\"version\": 1, \"flow\": [{\"qps\": -Infinity}]}",
            "rules.flow[0].qps: must be a finite number, was -Infinity (line 1, column"),
        Arguments.of("{\"version\": 1, \"flow\": [] // rules\n}",
            "rules.flow: is not valid JSON: comments are not JSON (line 1, column"),
        Arguments.of("{\"version\": 1, \"flow\": [{\"qps\": +1}]}",
            "rules.flow[0].qps: is not valid JSON: a number must not start with '+' (line 1, column"),
        Arguments.of("{\"version\": 01}",
            "rules.version: is not valid JSON: a number must not start with 0 (line 1, column"),
        Arguments.of("{\"version\": tru}",
            "rules.version: is not valid JSON: unexpected text 'tru' (line 1, column"),
        Arguments.of("{\"version\": \"\\q\"}",
            "rules.version: is not valid JSON: a string has an unknown escape sequence (line 1,"
                + " column"),
        Arguments.of("{\"version\": \"\u0001\"}",
            "rules.version: is not valid JSON: a control character in a string must be escaped"
                + " (line 1, column"));
  }

  @ParameterizedTest
  @MethodSource("syntax")
  void parse_malformedJson_reportsWhere(String json, String expectedStart) {
    assertThat(errors(json)).singleElement().asString().startsWith(expectedStart)
        .doesNotContain("Feature", "StreamReadConstraints", "`", "enable", "jackson");
  }

  @Test
  void parse_deepNesting_isRefusedByTheLimit() {
    String deep = "{\"version\": 1, \"x\": " + "[".repeat(100) + "]".repeat(100) + "}";

    assertThat(errors(deep)).singleElement().asString()
        .startsWith("rules.x[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: must nest arrays and"
            + " objects at most 16 deep, was 17 deep (line 1, column")
        .doesNotContain("StreamReadConstraints", "`");
  }

  @Test
  void parse_hugeDocument_isRefusedBeforeParsing() {
    String huge = "{\"version\": 1, \"x\": \"" + "a".repeat(RuleFormat.MAX_DOCUMENT_CHARS) + "\"}";

    assertThat(errors(huge)).singleElement().asString()
        .startsWith("rules: the document must be at most 1048576 characters long");
  }

  @Test
  void parse_longString_isRefusedByTheLimit() {
    String longName = "{\"version\": 1, \"flow\": [{\"resource\": \""
        + "a".repeat(RuleFormat.MAX_STRING_CHARS + 1) + "\", \"qps\": 1}]}";

    assertThat(errors(longName)).singleElement().asString()
        .startsWith("rules.flow[0].resource: a string must be at most 4096 characters long, was"
            + " 4097 (line 1, column")
        .doesNotContain("StreamReadConstraints", "`");
  }
}
