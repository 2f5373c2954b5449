package dev.guard.rules.internal;

import dev.guard.api.rule.Rule;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The limits a rule set must keep so that its written document reads back, checked on the same
 * terms when a document is read and when a set is written: the sets the format reads and the sets
 * it writes are the same sets (docs/RULES.md, "Reading and writing").
 *
 * <p>A written document reads back when (1) no resource has more distinct rules of a kind than the
 * kind allows, (2) no string or field name in it is longer than the reader's string limit and (3)
 * its text is no longer than the reader's document limit. The reader's other limits are never
 * reached by a written document: its nesting is fixed by the format, a few levels, and no number
 * it writes is longer than a {@code double}'s shortest form (at most 24 characters). Every method here only records problems;
 * the caller throws them all at once.
 */
public final class ReadBack {

  /** Distinct rules per resource, for one kind; exact duplicates collapse, as in a rule set. */
  private final Map<String, Set<Rule>> perResource = new HashMap<>();

  /** Starts counting the rules of one kind (one list of a document). */
  public ReadBack() {}

  /**
   * Counts a rule of one kind toward its resource's limit ({@link KindFormat#maxPerResource()}),
   * recording a problem at {@code itemPath + ".resource"} for the first rule over it.
   *
   * @return whether the rule fits
   */
  public boolean fitsItsResource(KindFormat<?> kind, Rule rule, String itemPath,
      Problems problems) {
    Set<Rule> own = perResource.computeIfAbsent(rule.resource(), name -> new HashSet<>());
    if (own.contains(rule) || own.size() < kind.maxPerResource()) {
      own.add(rule);
      return true;
    }
    int max = kind.maxPerResource();
    problems.add(itemPath + ".resource", "'" + rule.resource() + "' already has " + max + " "
        + kind.ruleName() + (max == 1 ? " rule" : " rules") + kind.overLimitHint()
        + " (at most " + max + " per resource)");
    return false;
  }

  /**
   * Records every string value and field name under {@code node} longer than {@code max}
   * characters, at its path ({@code rules.flow[3].resource}).
   */
  public static void longStrings(JsonNode node, String path, int max, Problems problems) {
    if (node.isString() && node.stringValue().length() > max) {
      problems.add(path, tooLong("must be at most " + max + " characters long",
          node.stringValue().length()));
    }
    for (int i = 0; node.isArray() && i < node.size(); i++) {
      longStrings(node.get(i), path + "[" + i + "]", max, problems);
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String fieldPath = path + "." + field.getKey();
      if (field.getKey().length() > max) {
        problems.add(fieldPath, tooLong("must be named in at most " + max + " characters",
            field.getKey().length()));
      }
      longStrings(field.getValue(), fieldPath, max, problems);
    }
  }

  /**
   * Records a problem at {@code path} if the written document is longer than {@code max}
   * characters.
   *
   * @param written the length of the document as the format writes it
   */
  public static void documentLength(int written, String path, int max, Problems problems) {
    if (written > max) {
      problems.add(path, "must be at most " + max + " characters long as RuleFormat.write writes"
          + " it, so that it reads back, was " + written + " characters; split the rules among"
          + " sources that each own a part of them, or shorten their names");
    }
  }

  private static String tooLong(String must, int length) {
    return must + " to be read back, was " + length + " characters";
  }
}
