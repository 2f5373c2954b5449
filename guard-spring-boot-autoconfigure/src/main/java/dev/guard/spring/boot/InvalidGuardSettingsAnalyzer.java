package dev.guard.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a start-up failure over guard's settings into Spring Boot's report: the problems as the
 * description, what to do as the action, instead of a stack trace. Registered in {@code
 * META-INF/spring.factories}.
 */
final class InvalidGuardSettingsAnalyzer extends AbstractFailureAnalyzer<InvalidGuardSettingsException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, InvalidGuardSettingsException cause) {
    StringBuilder description = new StringBuilder("guard's settings are not valid:\n");
    cause.problems().forEach(problem -> description.append("\n    ").append(problem));
    return new FailureAnalysis(description.toString(),
        "Correct the properties named above: each problem says what its value must be.", cause);
  }
}
