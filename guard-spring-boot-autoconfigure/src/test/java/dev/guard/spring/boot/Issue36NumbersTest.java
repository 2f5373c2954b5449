package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.rules.RuleFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Issue 36: a number no double holds ({@code .nan}, {@code .inf}, {@code 1.0e+400} in YAML,
 * {@code 1e99999999999} in a property or variable) failed the start-up with a bare
 * NumberFormatException; it fails with the property path and the value, in every numeric field of
 * every rule kind.
 */
@ExtendWith(OutputCaptureExtension.class)
class Issue36NumbersTest {

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(GuardAutoConfiguration.class)
  static class Application {}

  @ParameterizedTest
  @CsvSource({".nan, NaN", ".inf, Infinity", "-.inf, -Infinity", "1.0e+400, Infinity"})
  void yamlNumberNoDoubleHolds_failsTheStartUpNamingItsProperty(String written, String shown,
      @TempDir Path dir, CapturedOutput output) throws Exception {
    Path yaml = dir.resolve("application.yml");
    Files.writeString(yaml, """
        guard:
          rules:
            flow:
              - resource: checkout
                qps: %s
        """.formatted(written));
    SpringApplication application = new SpringApplication(Application.class);
    application.setWebApplicationType(WebApplicationType.NONE);

    assertThatThrownBy(() -> application.run("--spring.config.location=file:" + yaml))
        .hasStackTraceContaining("InvalidGuardSettingsException")
        .satisfies(failure -> assertThat(failure).hasRootCauseInstanceOf(InvalidRulesException.class));
    assertThat(output.getOut() + output.getErr())
        .contains("APPLICATION FAILED TO START")
        .contains("guard.rules.flow[0].qps: must be a finite number, was " + shown)
        .doesNotContain("NumberFormatException");
  }

  @Test
  void variableWithAnExponentNoIntHolds_failsNamingPropertyAndVariable() {
    StandardEnvironment environment = environment(Map.of());
    environment.getPropertySources().addLast(new SystemEnvironmentPropertySource("systemEnvironment",
        Map.of("GUARD_RULES_FLOW_0_RESOURCE", "checkout", "GUARD_RULES_FLOW_0_QPS", "1e99999999999")));

    assertThatThrownBy(() -> EnvironmentRules.read(environment))
        .isInstanceOfSatisfying(InvalidRulesException.class, invalid -> assertThat(invalid.errors())
            .extracting(String::valueOf).containsExactly("guard.rules.flow[0].qps "
                + "(GUARD_RULES_FLOW_0_QPS): must be a finite number, was 1e99999999999"));
  }

  @Test
  void numberLongerThanADocumentTakes_namesItsPropertyAndNoPlaceInTheDocument() {
    String digits = "1" + "0".repeat(70);
    StandardEnvironment environment = environment(Map.of("guard.rules.flow[3].resource", "a",
        "guard.rules.flow[3].qps", digits));

    assertThatThrownBy(() -> EnvironmentRules.read(environment))
        .isInstanceOfSatisfying(InvalidRulesException.class, invalid -> assertThat(invalid.errors())
            .extracting(String::valueOf).containsExactly(
                "guard.rules.flow[3].qps: a number must be at most 64 characters long, was 71"));
  }

  @Test
  void everyNumericFieldOfEveryKind_refusesNumbersNoDoubleHolds_namingPathAndValue()
      throws Exception {
    List<String> fields = numericFields();
    assertThat(fields).contains("flow[0].qps", "flow[0].warmUp.coldFactor",
        "perValue[0].quotas[0].limit", "circuitBreakers[0].errorRatio", "circuitBreakers[0].openFor",
        "adaptiveConcurrency[0].maxLimit", "system[0].maxCpuUsage");
    Map<Object, String> values = Map.of(Double.NaN, "NaN", Double.POSITIVE_INFINITY, "Infinity",
        Double.NEGATIVE_INFINITY, "-Infinity", "1e99999999999", "1e99999999999",
        "-1E+99999999999", "-1E+99999999999");
    List<String> missed = new ArrayList<>();
    for (String field : fields) {
      String kind = field.substring(0, field.indexOf('['));
      values.forEach((value, shown) -> {
        String property = "guard.rules." + field;
        String expected = property + ": must be a finite number, was " + shown;
        Map<String, Object> properties = new HashMap<>();
        properties.put("guard.rules." + kind + "[0].resource", "r");
        properties.put(property, value);
        try {
          EnvironmentRules.read(environment(properties));
          missed.add(expected + " (accepted)");
        } catch (InvalidRulesException invalid) {
          if (!invalid.errors().stream().map(String::valueOf).toList().contains(expected)) {
            missed.add(expected + " (got " + invalid.errors() + ")");
          }
        }
      });
    }
    assertThat(missed).isEmpty();
  }

  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return environment;
  }

  /** Every field of the rule document's schema that holds a number or a duration. */
  private static List<String> numericFields() throws Exception {
    JsonNode schema = new ObjectMapper().readTree(RuleFormat.schema());
    List<String> fields = new ArrayList<>();
    schema.get("properties").properties().forEach(kind -> {
      if (!kind.getKey().equals("version") && !kind.getKey().startsWith("$")) {
        walk(schema, kind.getValue(), kind.getKey(), fields);
      }
    });
    return fields;
  }

  private static void walk(JsonNode schema, JsonNode node, String path, List<String> fields) {
    boolean duration = false;
    if (node.has("$ref")) {
      String name = node.get("$ref").asString().substring("#/$defs/".length());
      duration = name.equals("duration");
      node = schema.get("$defs").get(name);
    }
    String types = String.valueOf(node.get("type"));
    if (types.contains("object") && node.has("properties")) {
      JsonNode object = node;
      object.get("properties").properties().forEach(
          field -> walk(schema, field.getValue(), path + "." + field.getKey(), fields));
    } else if (types.contains("array") && node.has("items")) {
      walk(schema, node.get("items"), path + "[0]", fields);
    } else if (duration || types.contains("number") || types.contains("integer")) {
      fields.add(path);
    }
  }
}
