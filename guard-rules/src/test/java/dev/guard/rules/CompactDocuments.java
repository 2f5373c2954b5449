package dev.guard.rules;

import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rule documents written without spaces, as a hand or a tool may write them: shorter than {@link
 * RuleFormat#write}'s text of the same rules, so they can be read when that text is over the
 * limit. Built one rule at a time, so that rules no single document may hold can be written too.
 */
final class CompactDocuments {

  private static final ObjectMapper JSON = new ObjectMapper();

  private CompactDocuments() {}

  /** The document of the rules, without spaces. */
  static String of(List<? extends Rule> rules) {
    ObjectNode root = JSON.createObjectNode().put("version", RuleFormat.VERSION);
    for (Rule rule : rules) {
      JsonNode one = tree(RuleFormat.write(RuleSet.of(rule)));
      for (Map.Entry<String, JsonNode> field : one.properties()) {
        if (field.getValue().isArray()) {
          ArrayNode list = root.has(field.getKey()) ? (ArrayNode) root.get(field.getKey())
              : root.putArray(field.getKey());
          list.add(field.getValue().get(0));
        }
      }
    }
    return root.toString();
  }

  /** The length of {@link RuleFormat#write}'s text of one rule, version line included. */
  static int writtenLength(Rule rule) {
    return RuleFormat.write(RuleSet.of(rule)).length();
  }

  private static JsonNode tree(String document) {
    return JSON.readTree(document);
  }
}
