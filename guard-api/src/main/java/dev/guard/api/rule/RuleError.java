package dev.guard.api.rule;

import java.util.Objects;

/**
 * One reason a rule set was refused: where the problem is and what it is. For a rules document the
 * location is a JSON path ({@code rules.flow[3].qps}); for a rule set refused by an engine it names
 * the resource or the rule set.
 *
 * <pre>{@code
 * new RuleError("rules.flow[3].qps", "must be finite and >= 0, was -5").toString()
 * // "rules.flow[3].qps: must be finite and >= 0, was -5"
 * }</pre>
 *
 * @param path where the problem is
 * @param message what is wrong, "must ..., was value" where a value is at fault
 */
public record RuleError(String path, String message) {

  /**
   * Checks the fields.
   *
   * @param path where the problem is
   * @param message what is wrong
   * @throws NullPointerException if a field is null
   */
  public RuleError {
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
