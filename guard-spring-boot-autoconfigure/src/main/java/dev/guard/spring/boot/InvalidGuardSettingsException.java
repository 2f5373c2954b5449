package dev.guard.spring.boot;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The application's {@code guard.*} settings are not ones guard can use, found when the context
 * starts. Each problem names its property and the value given ({@code guard.rules.flow[0].qps:
 * must be finite and >= 0, was -5}); all problems of the rules are reported at once. Spring Boot
 * prints them as the start-up failure's description.
 */
public final class InvalidGuardSettingsException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** Each problem, property first. */
  private final List<String> problems;

  /**
   * A failure with these problems.
   *
   * @param problems each problem, starting with the property it is about
   * @param cause what found the problems, if it was not guard's starter
   */
  public InvalidGuardSettingsException(List<String> problems, @Nullable Throwable cause) {
    super(message(problems), cause);
    this.problems = List.copyOf(problems);
  }

  /**
   * One problem.
   *
   * @param property the property, as the application spells it
   * @param problem what is wrong with it, with the value given
   * @return the failure
   */
  public static InvalidGuardSettingsException of(String property, String problem) {
    return new InvalidGuardSettingsException(List.of(property + ": " + problem), null);
  }

  /**
   * Each problem, property first.
   *
   * @return the problems, at least one
   */
  public List<String> problems() {
    return problems;
  }

  private static String message(List<String> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("problems must not be empty");
    }
    StringBuilder text = new StringBuilder("guard's settings are not valid:");
    problems.forEach(problem -> text.append("\n  ").append(problem));
    return text.toString();
  }
}
