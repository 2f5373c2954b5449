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
  private final List<InvalidRulesException.Error> errors;

  /**
   * Creates the exception.
   *
   * @param errors every reason the set was refused; not empty
   * @throws IllegalArgumentException if {@code errors} is empty
   */
  public InvalidRulesException(List<InvalidRulesException.Error> errors) {
    super(summary(errors));
    this.errors = List.copyOf(errors);
  }

  /**
   * Returns every reason the set was refused, in document order.
   *
   * @return the errors, never empty
   */
  public List<InvalidRulesException.Error> errors() {
    return errors;
  }

  private static String summary(List<InvalidRulesException.Error> errors) {
    Objects.requireNonNull(errors, "errors");
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("errors must not be empty");
    }
    StringBuilder text = new StringBuilder();
    text.append(errors.size() == 1 ? "1 error" : errors.size() + " errors");
    text.append(" in the rule set:");
    for (InvalidRulesException.Error error : errors) {
      text.append("\n  ").append(error);
    }
    return text.toString();
  }

  /**
   * One reason a rule set was refused: where the problem is and what it is. For a rules document the
   * location is a JSON path ({@code rules.flow[3].qps}); for a rule set refused by an engine it names
   * the resource or the rule set.
   *
   * <pre>{@code
   * new Error("rules.flow[3].qps", "must be finite and >= 0, was -5").toString()
   * // "rules.flow[3].qps: must be finite and >= 0, was -5"
   * }</pre>
   *
   * @param path where the problem is
   * @param message what is wrong, "must ..., was value" where a value is at fault
   */
  public record Error(String path, String message) {

    /**
     * Checks the fields.
     *
     * @param path where the problem is
     * @param message what is wrong
     * @throws NullPointerException if a field is null
     */
    public Error {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(message, "message");
    }

    /**
     * Returns {@code "path: message"}.
     *
     * @return the error as one line
     */
    @Override
    public String toString() {
      return path + ": " + message;
    }
  }
}
