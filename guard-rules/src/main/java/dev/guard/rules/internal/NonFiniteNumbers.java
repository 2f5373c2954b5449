package dev.guard.rules.internal;

import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Refuses every number of a document that no {@code double} can hold ({@code 1e400} and the like):
 * read as a double it would be infinite, and no rule value may be, wherever it stands (a rule
 * field, an exception value, a field the format does not know). Each is reported once, at its
 * path, and later checks of the same value stay silent ({@link Problems#refuse}).
 */
public final class NonFiniteNumbers {

  private NonFiniteNumbers() {}

  /**
   * Reports the non-finite numbers of a tree.
   *
   * @param node the tree
   * @param path its path
   * @param problems where the errors go
   */
  public static void refuse(JsonNode node, String path, Problems problems) {
    if (node.isNumber() && !Double.isFinite(Fields.toDouble(node))) {
      problems.refuse(path, "must be a finite number, was " + Fields.show(node));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        refuse(node.get(i), path + "[" + i + "]", problems);
      }
    } else if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        refuse(field.getValue(), path + "." + field.getKey(), problems);
      }
    }
  }
}
