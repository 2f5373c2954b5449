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
    return new FailureAnalysis(String.valueOf(cause.getMessage()),
        "Correct the properties named above: each problem says what its value must be.", cause);
  }
}
