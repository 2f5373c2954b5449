package dev.guard.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

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
      for (Iterator<Map.Entry<String, JsonNode>> it = one.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
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
    try {
      return JSON.readTree(document);
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible);
    }
  }
}
