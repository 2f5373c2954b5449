package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import java.time.DateTimeException;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The rule document's JSON Schema: a valid draft 2020-12 schema with its {@code $id}, that a
 * document names with {@code "$schema"}, whose patterns read names and durations exactly as the
 * rule records and {@link Duration#parse} do.
 */
class RuleSchemaTest {

  private static final JsonNode SCHEMA = RuleSchema.tree(RuleFormat.schema()).orElseThrow();

  @Test
  void schema_isAValidDraft202012SchemaWithItsId() {
    Schema metaSchema = RuleSchema.registry()
        .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));

    assertThat(metaSchema.validate(RuleFormat.schema(), InputFormat.JSON)).isEmpty();
    assertThat(SCHEMA.get("$schema").asString())
        .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    assertThat(SCHEMA.get("$id").asString()).isEqualTo(RuleFormat.SCHEMA_ID);
    assertThat(RuleFormat.class.getClassLoader().getResource(RuleFormat.SCHEMA_RESOURCE))
        .isNotNull();
  }

  @Test
  void schema_explainsEveryField() {
    List<String> undescribed = new java.util.ArrayList<>();
    collectUndescribed(SCHEMA.get("properties"), "", undescribed);
    SCHEMA.get("$defs").properties().forEach(def -> {
      JsonNode properties = def.getValue().get("properties");
      if (properties != null) {
        collectUndescribed(properties, def.getKey(), undescribed);
      }
    });

    assertThat(undescribed).isEmpty();
  }

  private static void collectUndescribed(JsonNode properties, String at, List<String> out) {
    properties.properties().forEach(field -> {
      JsonNode schema = field.getValue();
      if (!schema.has("description") && !describedByRef(schema)) {
        out.add(at + "." + field.getKey());
      }
      JsonNode nested = schema.get("properties");
      if (nested != null) {
        collectUndescribed(nested, at + "." + field.getKey(), out);
      }
    });
  }

  private static boolean describedByRef(JsonNode schema) {
    JsonNode ref = schema.get("$ref");
    return ref != null
        && SCHEMA.at(ref.asString().substring(1)).has("description");
  }

  @Test
  void parse_aDocumentNamingTheSchema_readsAsWithoutItAndIsWrittenWithout() {
    RuleSet rules = RuleFormat.parse("""
        {"$schema": "./rules.schema.json", "version": 1, "flow": [{"resource": "a", "qps": 5}]}
        """);

    assertThat(rules).isEqualTo(RuleSet.of(List.of(FlowRule.qps("a", 5))));
    assertThat(RuleFormat.write(rules)).doesNotContain("$schema");
    assertThat(RuleFormat.parse("{\"version\": 1, \"$schema\": null}")).isEqualTo(RuleSet.empty());
    String named = "{\"$schema\": \"" + RuleFormat.SCHEMA_ID + "\", \"version\": 1}";
    assertThat(RuleSchema.errors(RuleSchema.tree(named).orElseThrow())).isEmpty();
  }

  @Test
  void parse_aSchemaThatIsNotAString_isInvalidAtItsPath() {
    assertThatThrownBy(() -> RuleFormat.parse("{\"version\": 1, \"$schema\": 5}"))
        .isInstanceOfSatisfying(InvalidRulesException.class, invalid ->
            assertThat(invalid.errors()).containsExactly(
                new InvalidRulesException.Error("rules.$schema", "must be a string, was 5")));
    assertThat(RuleSchema.errors(RuleSchema.tree("{\"version\": 1, \"$schema\": 5}")
        .orElseThrow())).isNotEmpty();
  }

  @Test
  void namePattern_findsANonBlankCharacterExactlyWhereJavaDoes() {
    Pattern name = Pattern.compile(SCHEMA.at("/$defs/name/pattern").asString());

    for (char c = 0; c < Character.MAX_VALUE; c++) {
      String text = String.valueOf(c);
      assertThat(name.matcher(text).find()).as("U+%04X", (int) c).isEqualTo(!text.isBlank());
    }
  }

  @Property(tries = 3000)
  void durationPattern_matchesExactlyWhatDurationParseReads(@ForAll("durationTexts") String text) {
    Pattern duration = Pattern.compile(SCHEMA.at("/$defs/duration/pattern").asString());
    Pattern lineBreak = Pattern.compile(SCHEMA.at("/$defs/duration/not/pattern").asString());
    boolean schemaReads = duration.matcher(text).find() && !lineBreak.matcher(text).find();

    assertThat(schemaReads).as(text).isEqualTo(javaReads(text) != Reading.SYNTAX);
  }

  private enum Reading { READ, OVERFLOW, SYNTAX }

  private static Reading javaReads(String text) {
    try {
      Duration.parse(text);
      return Reading.READ;
    } catch (DateTimeException unreadable) {
      Throwable cause = unreadable.getCause();
      return cause instanceof ArithmeticException || cause instanceof NumberFormatException
          ? Reading.OVERFLOW : Reading.SYNTAX;
    }
  }

  @Provide
  Arbitrary<String> durationTexts() {
    Arbitrary<String> symbols = Arbitraries.strings().withChars("PpTtDdHhMmSs0123456789+-.,\n x")
        .ofMaxLength(14);
    Arbitrary<String> shaped = Arbitraries.strings().withChars("0123456789").ofMinLength(1)
        .ofMaxLength(3).list().ofSize(4).map(parts -> "PT" + parts.get(0) + "H" + parts.get(1)
            + "M" + parts.get(2) + "." + parts.get(3) + "S");
    Arbitrary<String> spelled = Arbitraries.of("PT10S", "pt1s", "P1D", "P1DT", "PT", "P", "-PT-1S",
        "PT1H-1S", "PT1.S", "PT.5S", "PT1,5S", "+P+1DT+1H+1M+1.5S", "PT1.0000000001S",
        "PT1S\n", "\nPT1S", "P1Y", "PT1D", "PT1S1M", "PT9999999999999999H", "-P-0D");
    return Arbitraries.oneOf(List.of(symbols, shaped, spelled));
  }

  @Test
  void aNameOfTheLongestLength_conformsAndParses_oneCharacterMoreDoesNeither() {
    String longest = "{\"version\": 1, \"flow\": [{\"resource\": \""
        + "r".repeat(RuleFormat.MAX_STRING_CHARS) + "\", \"qps\": 1}]}";
    String tooLong = longest.replace("\"r", "\"rr");

    assertThat(RuleSchema.errors(RuleSchema.tree(longest).orElseThrow())).isEmpty();
    assertThat(RuleFormat.parse(longest).rules()).hasSize(1);
    assertThat(RuleSchema.errors(RuleSchema.tree(tooLong).orElseThrow())).isNotEmpty();
    assertThatThrownBy(() -> RuleFormat.parse(tooLong)).isInstanceOf(InvalidRulesException.class);
  }

  @Test
  void everyOptionalFieldNull_conformsAndReadsAsAbsent() {
    String document = """
        {"$schema": null, "version": 1, "flow": [
          {"resource": "a", "qps": 1, "concurrency": null, "origin": null, "relatedTo": null,
           "fromEntrance": null, "warmUp": null, "pacing": null, "cluster": null},
          {"resource": "b", "qps": 1, "pacing": {"maxQueueing": null}},
          {"resource": "c", "qps": 1, "warmUp": {"period": "PT1S", "coldFactor": null}},
          {"resource": "d", "qps": 1, "cluster": {"flowId": "d", "threshold": null,
           "fallbackToLocal": null, "window": null, "buckets": null, "leaseTime": null}}],
         "perValue": [{"resource": "a", "argumentIndex": 0, "threshold": 1, "concurrency": null,
           "burst": null, "period": null, "pacing": null, "valueType": null, "exceptions": null,
           "maxValues": null}],
         "circuitBreakers": [{"resource": "a", "errorRatio": 0.5, "slowCallRatio": null,
           "errorCount": null, "slowerThan": null, "minCalls": null, "window": null,
           "buckets": null, "openFor": null, "probes": null, "probeTimeout": null}],
         "origins": [{"resource": "a", "allowOrigins": ["x"], "denyOrigins": null}],
         "system": [{"maxInboundQps": null, "maxConcurrency": null, "maxAverageRt": null,
           "maxSystemLoad": null, "maxCpuUsage": null}]}""";

    assertThat(RuleSchema.describe(RuleSchema.errors(RuleSchema.tree(document).orElseThrow())))
        .isEmpty();
    assertThat(RuleFormat.parse(document).rules()).hasSize(8);
  }

  @Test
  void schemaErrors_nameTheInstanceLocation() {
    List<Error> errors = RuleSchema.errors(RuleSchema.tree(
        "{\"version\": 1, \"flow\": [{\"resource\": \"a\", \"qps\": -5}]}").orElseThrow());

    assertThat(RuleSchema.describe(errors)).anySatisfy(line ->
        assertThat(line).startsWith("/flow/0/qps"));
  }
}
