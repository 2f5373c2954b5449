package dev.guard.api.rule;

import java.util.List;
import java.util.Objects;

/**
 * A rule set was refused, with every reason at once: thrown by rule formats when a document does
 * not describe a valid rule set, and by engines when they cannot apply a set. Nothing was applied.
 *
 * <pre>{@code
 * try {
 *   engine.apply(RuleFormat.json().parse(text));
 * } catch (InvalidRulesException refused) {
 *   refused.errors().forEach(error -> log.warn("{}", error));  // rules.flow[3].qps: must be ...
 * }
 * }</pre>
 */
public final class InvalidRulesException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** The errors; a list of records, serializable as long as the list is. */
  @SuppressWarnings("serial")
  private final List<RuleError> errors;

  /**
   * Creates the exception.
   *
   * @param errors every reason the set was refused; not empty
   * @throws IllegalArgumentException if {@code errors} is empty
   */
  public InvalidRulesException(List<RuleError> errors) {
    super(summary(errors));
    this.errors = List.copyOf(errors);
  }

  /**
   * Returns every reason the set was refused, in document order.
   *
   * @return the errors, never empty
   */
  public List<RuleError> errors() {
    return errors;
  }

  private static String summary(List<RuleError> errors) {
    Objects.requireNonNull(errors, "errors");
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("errors must not be empty");
    }
    StringBuilder text = new StringBuilder();
    text.append(errors.size() == 1 ? "1 error" : errors.size() + " errors");
    text.append(" in the rule set:");
    for (RuleError error : errors) {
      text.append("\n  ").append(error);
    }
    return text.toString();
  }
}
