package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.Error;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.rules.RuleSchemaAgreementProperties.FormatOnly;
import dev.guard.rules.RuleSchemaAgreementProperties.SchemaOnly;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One document for each check the format makes and the schema cannot ({@link FormatOnly}), and
 * for the one place the schema is stricter ({@link SchemaOnly}), so that each entry of those lists
 * is a real disagreement, known by the error it gives.
 */
class RuleSchemaDisagreementsTest {

  private static final String BREAKER = "{\"version\": 1, \"circuitBreakers\": [{\"resource\": "
      + "\"r\", \"errorRatio\": 0.5, ";
  private static final String PER_VALUE = "{\"version\": 1, \"perValue\": [{\"resource\": \"r\", "
      + "\"argumentIndex\": 0, ";

  static Stream<Arguments> formatOnly() {
    return Stream.of(
        Arguments.of(FormatOnly.REPEATED_FIELD, "{\"version\": 1, \"version\": 1}"),
        Arguments.of(FormatOnly.TEXT_LIMIT, "{\"version\": 1, \"system\": [{\"maxCpuUsage\": 0."
            + "0".repeat(70) + "1}]}"),
        Arguments.of(FormatOnly.NON_FINITE_NUMBER, PER_VALUE + "\"threshold\": 1, "
            + "\"exceptions\": [{\"value\": 1e400, \"threshold\": 2}]}]}"),
        Arguments.of(FormatOnly.NUMBER_SPELLING, "{\"version\": 1.0}"),
        Arguments.of(FormatOnly.NUMBER_SPELLING, PER_VALUE + "\"threshold\": 1e2}]}"),
        Arguments.of(FormatOnly.DURATION_RANGE, BREAKER + "\"openFor\": \"PT0S\"}]}"),
        Arguments.of(FormatOnly.DURATION_RANGE, BREAKER + "\"openFor\": \"PT24H0.001S\"}]}"),
        Arguments.of(FormatOnly.DURATION_RANGE, BREAKER + "\"openFor\": \"PT0.0005S\"}]}"),
        Arguments.of(FormatOnly.DURATION_OVERFLOW,
            BREAKER + "\"openFor\": \"PT9999999999999999H\"}]}"),
        Arguments.of(FormatOnly.BUCKETS_DIVIDE_WINDOW, BREAKER + "\"buckets\": 3}]}"),
        Arguments.of(FormatOnly.BUCKETS_DIVIDE_WINDOW, "{\"version\": 1, \"flow\": [{\"resource\": "
            + "\"r\", \"qps\": 5, \"cluster\": {\"flowId\": \"f\", \"buckets\": 3}}]}"),
        Arguments.of(FormatOnly.TOKENS_WITH_BURST, PER_VALUE + "\"threshold\": 16777215, "
            + "\"burst\": 1}]}"),
        Arguments.of(FormatOnly.DISTINCT_EXCEPTION_VALUES, PER_VALUE + "\"threshold\": 1, "
            + "\"exceptions\": [{\"value\": \"a\", \"threshold\": 2}, {\"value\": \"a\", "
            + "\"threshold\": 3}]}]}"),
        Arguments.of(FormatOnly.RULES_PER_RESOURCE, "{\"version\": 1, \"origins\": ["
            + "{\"resource\": \"r\", \"allowOrigins\": [\"a\"]}, "
            + "{\"resource\": \"r\", \"denyOrigins\": [\"b\"]}]}"),
        Arguments.of(FormatOnly.RULES_PER_RESOURCE, "{\"version\": 1, \"adaptiveConcurrency\": ["
            + "{\"resource\": \"r\"}, {\"resource\": \"r\", \"minLimit\": 2}]}"),
        Arguments.of(FormatOnly.ADAPTIVE_LIMITS_IN_ORDER, "{\"version\": 1, "
            + "\"adaptiveConcurrency\": [{\"resource\": \"r\", \"minLimit\": 30}]}"),
        Arguments.of(FormatOnly.ADAPTIVE_LIMITS_IN_ORDER, "{\"version\": 1, "
            + "\"adaptiveConcurrency\": [{\"resource\": \"r\", \"maxLimit\": 10}]}"),
        Arguments.of(FormatOnly.SHARE_ROUNDED_TO_ZERO, "{\"version\": 1, \"adaptiveConcurrency\": [{"
            + "\"resource\": \"r\", \"shares\": {\"a\": 1e-400}}]}"),
        Arguments.of(FormatOnly.SHARES_SUM, "{\"version\": 1, \"adaptiveConcurrency\": [{"
            + "\"resource\": \"r\", \"shares\": {\"a\": 0.6, \"b\": 0.6}}]}"),
        Arguments.of(FormatOnly.CONCURRENCY_PERIOD, PER_VALUE + "\"concurrency\": 1, "
            + "\"period\": \"PT2S\"}]}"));
  }

  @ParameterizedTest
  @MethodSource("formatOnly")
  void formatOnlyCheck_conformsToTheSchemaAndIsInvalidForTheFormatForThatReason(
      FormatOnly check, String document) {
    assertThat(RuleSchema.describe(schemaErrors(document))).isEmpty();
    assertThatThrownBy(() -> RuleFormat.parse(document))
        .isInstanceOfSatisfying(InvalidRulesException.class, invalid ->
            assertThat(invalid.errors()).isNotEmpty()
                .allSatisfy(error -> assertThat(FormatOnly.of(error)).isEqualTo(check)));
  }

  @Test
  void formatOnlyChecks_eachHasADocument() {
    Set<FormatOnly> shown = EnumSet.noneOf(FormatOnly.class);
    formatOnly().forEach(arguments -> shown.add((FormatOnly) arguments.get()[0]));

    assertThat(shown).containsExactlyInAnyOrder(FormatOnly.values());
  }

  @ParameterizedTest
  @MethodSource("roundedOntoABound")
  void numberRoundedOntoABound_isAcceptedByTheFormatAndDoesNotConformToTheSchema(String document) {
    List<Error> errors = schemaErrors(document);

    assertThat(RuleFormat.parse(document).rules()).hasSize(1);
    assertThat(errors).isNotEmpty()
        .allSatisfy(error -> assertThat(SchemaOnly.of(error))
            .isEqualTo(SchemaOnly.NUMBER_ROUNDED_ONTO_A_BOUND));
    assertThat(Arrays.asList(SchemaOnly.values()))
        .containsExactly(SchemaOnly.NUMBER_ROUNDED_ONTO_A_BOUND);
  }

  static Stream<String> roundedOntoABound() {
    return Stream.of(
        "{\"version\": 1, \"system\": [{\"maxCpuUsage\": 1.00000000000000001}]}",
        "{\"version\": 1, \"flow\": [{\"resource\": \"r\", \"qps\": -1e-400}]}",
        "{\"version\": 1, \"flow\": [{\"resource\": \"r\", \"qps\": 1000000000.00000000001}]}");
  }

  private static List<Error> schemaErrors(String document) {
    return RuleSchema.errors(RuleSchema.tree(document).orElseThrow());
  }
}
