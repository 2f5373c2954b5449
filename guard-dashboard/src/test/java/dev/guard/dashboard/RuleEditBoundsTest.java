package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * A rule edit with a value beyond its documented range (docs/RULES.md, "Value ranges") is a bad
 * document, answered 422 with the field's path and the value, and changes nothing: it can no
 * longer get as far as the engine and fail there.
 */
class RuleEditBoundsTest {

  private static final String HUGE = "PT2562048H";

  private final Fixture fixture = Fixture.withToken();

  @AfterEach
  void close() {
    fixture.close();
  }

  static Stream<Arguments> edits() {
    return Stream.of(
        Arguments.of("\"perValue\": [{\"resource\": \"orders\", \"argumentIndex\": 0, \"threshold\": 5,"
            + " \"pacing\": {\"maxQueueing\": \"" + HUGE + "\"}}]",
            "rules.perValue[0].pacing.maxQueueing"),
        Arguments.of("\"circuitBreakers\": [{\"resource\": \"orders\", \"slowCallRatio\": 0.5,"
            + " \"slowerThan\": \"" + HUGE + "\"}]", "rules.circuitBreakers[0].slowerThan"),
        Arguments.of("\"circuitBreakers\": [{\"resource\": \"orders\", \"errorRatio\": 0.5,"
            + " \"openFor\": \"" + HUGE + "\"}]", "rules.circuitBreakers[0].openFor"),
        Arguments.of("\"system\": [{\"maxAverageRt\": \"" + HUGE + "\"}]",
            "rules.system[0].maxAverageRt"));
  }

  @ParameterizedTest
  @MethodSource("edits")
  void put_withAHugeDuration_answers422NamingTheFieldAndChangesNothing(String kind, String path) {
    RuleSet before = RuleSet.of(List.of(FlowRule.qps("orders", 100)));
    fixture.engine.apply(before);

    HttpResponse<String> response = fixture.putRules("{\"version\": 1, " + kind + "}");

    assertThat(response.statusCode()).isEqualTo(422);
    JsonNode errors = Fixture.json(response.body());
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0).get("path").asString()).isEqualTo(path);
    assertThat(errors.get(0).get("message").asString())
        .isEqualTo("must be at most PT24H, was \"" + HUGE + "\"");
    assertThat(fixture.engine.ruleSet()).isEqualTo(before);
  }
}
