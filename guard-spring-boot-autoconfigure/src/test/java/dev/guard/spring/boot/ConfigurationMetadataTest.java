package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.rules.RuleFormat;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** IDE completion: the generated and additional metadata name every property the starter reads. */
class ConfigurationMetadataTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void every_engine_option_and_part_has_metadata_with_a_description() throws Exception {
    JsonNode metadata = read("META-INF/spring-configuration-metadata.json");
    List<String> names = new ArrayList<>();
    for (JsonNode property : metadata.get("properties")) {
      names.add(property.get("name").asString());
      assertThat(property.path("description").asString()).as(property.toString()).isNotBlank();
    }
    assertThat(names).contains("guard.enabled", "guard.max-resources", "guard.rule-history",
        "guard.second-window.buckets", "guard.rules-file", "guard.redis.uri",
        "guard.redis.rules-key", "guard.redis.token-namespace", "guard.observations.enabled",
        "guard.actuator.health-open-breakers", "guard.dashboard.path",
        "guard.rules.flow", "guard.rules.circuit-breakers");
  }

  @Test
  void every_top_level_field_of_the_rule_document_has_metadata() throws Exception {
    JsonNode schema = JSON.readTree(RuleFormat.schema());
    List<String> names = new ArrayList<>();
    read("META-INF/spring-configuration-metadata.json").get("properties")
        .forEach(property -> names.add(property.get("name").asString()));
    schema.get("properties").propertyNames().forEach(field -> {
      if (!field.equals("$schema")) {
        assertThat(names).contains("guard.rules." + kebab(field));
      }
    });
  }

  private static String kebab(String field) {
    return field.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
  }

  private static JsonNode read(String resource) throws Exception {
    try (InputStream in = ConfigurationMetadataTest.class.getClassLoader()
        .getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return JSON.readTree(in);
    }
  }
}
