package dev.guard.rules;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Optional;

/**
 * The rule document's JSON Schema ({@link RuleFormat#schema()}) in a draft 2020-12 validator, and
 * documents read as an editor reads them: standard JSON only, numbers exactly as written (no
 * rounding to {@code double}), a repeated field name keeping its last value.
 */
final class RuleSchema {

  private static final ObjectMapper READER = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  private static final Schema SCHEMA = REGISTRY.getSchema(RuleFormat.schema(), InputFormat.JSON);

  private RuleSchema() {}

  /** The validator's registry (draft 2020-12 by default, with the draft's meta-schemas). */
  static SchemaRegistry registry() {
    return REGISTRY;
  }

  /** The document as a tree, or empty if it is not standard JSON. */
  static Optional<JsonNode> tree(String document) {
    try {
      return Optional.ofNullable(READER.readTree(document)).filter(node -> !node.isMissingNode());
    } catch (JacksonException notJson) {
      return Optional.empty();
    }
  }

  /** What the schema finds wrong with a document; empty when it conforms. */
  static List<Error> errors(JsonNode document) {
    return SCHEMA.validate(document);
  }

  /** The schema's errors as lines "instance location: message", for failure messages. */
  static List<String> describe(List<Error> errors) {
    return errors.stream()
        .map(error -> error.getInstanceLocation() + " [" + error.getKeyword() + "]: "
            + error.getMessage())
        .toList();
  }
}
