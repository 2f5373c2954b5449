package dev.guard.rules.internal;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.rule.Rule;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON form of one rule kind: the document's list under {@link #key()} holds one object per
 * rule. Adding a kind to the format is one implementation of this interface and one line in
 * {@link Kinds#ALL}.
 *
 * @param <R> the rule type
 */
public interface KindFormat<R extends Rule> {

  /** The document's field that lists rules of this kind, such as {@code "flow"}. */
  String key();

  /**
   * What one rule of this kind is called in messages ({@code "perValue"} in "64 perValue rules"):
   * the key unless the kind names it otherwise.
   */
  default String ruleName() {
    return key();
  }

  /** The rule type. */
  Class<R> type();

  /**
   * Reads one rule, recording every problem in {@code fields} (and calling {@link
   * Fields#finish()} on each object it reads).
   *
   * @return the rule, or null if it has a problem
   */
  @Nullable R read(Fields fields);

  /**
   * The most distinct rules of this kind one resource may have, as an engine takes them (see
   * {@link dev.guard.api.internal.RuleLimits}); a document with more is refused at the first rule over.
   */
  default int maxPerResource() {
    return Integer.MAX_VALUE;
  }

  /**
   * What to do instead, appended to the error for a rule over {@link #maxPerResource()} (": list
   * every origin in that one rule"); empty when there is nothing to say.
   */
  default String overLimitHint() {
    return "";
  }

  /** Writes one rule into an empty object, in the form {@link #read} reads. */
  void write(R rule, ObjectNode out);
}
