package dev.guard.rules;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

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
    return SCHEMA.validate(wholeNumbersAsIntegers(document.deepCopy()));
  }

  /**
   * The longest whole number, in digits, that {@link #wholeNumbersAsIntegers} writes out as an
   * integer ({@code 1e400} is one of 401 digits); a longer one stays as it was read.
   */
  private static final int MAX_INTEGER_DIGITS = 1000;

  /**
   * The document with every whole number that no {@code long} holds, written with a fraction or
   * an exponent ({@code 9223372036854775808.0}, {@code 1e400}), read as that integer: JSON Schema
   * sees the same number either way. The validator compares a number with an integer bound
   * through {@code JsonNode.asLong()}, which Jackson 3 refuses for such a number rather than
   * wrapping it round as Jackson 2 did.
   */
  private static JsonNode wholeNumbersAsIntegers(JsonNode node) {
    if (node.isBigDecimal() && !node.canConvertToLong()) {
      BigDecimal value = node.decimalValue().stripTrailingZeros();
      boolean whole = value.scale() <= 0 && value.precision() - value.scale() <= MAX_INTEGER_DIGITS;
      return whole ? JsonNodeFactory.instance.numberNode(value.toBigIntegerExact()) : node;
    }
    if (node instanceof ObjectNode object) {
      for (String name : List.copyOf(object.propertyNames())) {
        object.set(name, wholeNumbersAsIntegers(object.get(name)));
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, wholeNumbersAsIntegers(array.get(i)));
      }
    }
    return node;
  }

  /** The schema's errors as lines "instance location: message", for failure messages. */
  static List<String> describe(List<Error> errors) {
    return errors.stream()
        .map(error -> error.getInstanceLocation() + " [" + error.getKeyword() + "]: "
            + error.getMessage())
        .toList();
  }
}
