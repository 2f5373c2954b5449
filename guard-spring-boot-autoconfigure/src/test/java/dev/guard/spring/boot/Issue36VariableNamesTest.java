package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Issue 36: an error in rules from environment variables named the item's place in the document
 * ({@code flow[0]} for {@code GUARD_RULES_FLOW_5_...}, {@code flow[1]} for the second of items 0
 * and 2) instead of the index written, and very deep names failed with a Jackson nesting error or
 * a StackOverflowError. Errors name the index and the variable; a path deeper than 16 segments
 * is refused naming the variable.
 */
class Issue36VariableNamesTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class));

  @Test
  void errorInItemFive_namesItemFiveAndItsVariable() {
    assertProblems(variables(Map.of("GUARD_RULES_FLOW_5_RESOURCE", "a",
            "GUARD_RULES_FLOW_5_QPS", "-1")),
        "guard.rules.flow[5].qps (GUARD_RULES_FLOW_5_QPS): must be finite and >= 0, was -1");
  }

  @Test
  void errorInItemTwoOfItemsZeroAndTwo_namesItemTwo() {
    assertProblems(variables(Map.of("GUARD_RULES_FLOW_0_RESOURCE", "a",
            "GUARD_RULES_FLOW_0_QPS", "1", "GUARD_RULES_FLOW_2_RESOURCE", "b",
            "guard_rules_flow_2_qps", "-1")),
        "guard.rules.flow[2].qps (guard_rules_flow_2_qps): must be finite and >= 0, was -1");
  }

  @Test
  void errorAboutAWholeItem_namesItsIndexAndItsVariables() {
    assertProblems(variables(Map.of("GUARD_RULES_CIRCUITBREAKERS_3_RESOURCE", "a")),
        "guard.rules.circuitBreakers[3] (GUARD_RULES_CIRCUITBREAKERS_3_*): needs \"slowCallRatio\","
            + " \"errorRatio\" or \"errorCount\"");
  }

  @Test
  void propertiesWithAGap_nameTheIndexWritten() {
    assertProblems(runner.withPropertyValues("guard.rules.flow[0].resource=a",
            "guard.rules.flow[0].qps=1", "guard.rules.flow[7].resource=b",
            "guard.rules.flow[7].qps=-1", "guard.rules.flow[7].quotas[4].limit=1"),
        "guard.rules.flow[7].qps: must be finite and >= 0, was -1",
        "guard.rules.flow[7].quotas[4].period: is required");
  }

  @ParameterizedTest
  @ValueSource(ints = {17, 1_000, 20_000})
  void variableDeeperThanSixteenSegments_failsNamingIt(int segments) {
    String variable = "GUARD_RULES_FLOW" + "_A".repeat(segments - 1);
    String shown = variable.length() <= 100 ? variable
        : variable.substring(0, 100) + "... (" + variable.length() + " characters)";
    runner.withInitializer(context -> replaceVariables(context.getEnvironment().getPropertySources(),
            Map.of(variable, "1")))
        .run(context -> assertThat(problems(context)).singleElement().asString()
            .isEqualTo(shown + ": is not a property path guard reads: it has " + segments
                + " segments below guard.rules, at most 16 (a rule document nests no deeper)"));
  }

  @Test
  void propertyDeeperThanSixteenSegments_failsNamingIt() {
    String property = "guard.rules.flow" + ".a".repeat(999);
    assertProblems(runner.withPropertyValues(property + "=1"), property.substring(0, 100)
        + "... (2014 characters): is not a property path guard reads: it has 1000 segments below"
        + " guard.rules, at most 16 (a rule document nests no deeper)");
  }

  private ApplicationContextRunner variables(Map<String, Object> variables) {
    return runner.withInitializer(
        context -> replaceVariables(context.getEnvironment().getPropertySources(), variables));
  }

  private static void assertProblems(ApplicationContextRunner runner, String... problems) {
    runner.run(context -> assertThat(problems(context)).containsExactly(problems));
  }

  /** The problems of the start-up failure, which must be over guard's settings. */
  private static List<String> problems(AssertableApplicationContext context) {
    assertThat(context).hasFailed();
    for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
      if (cause instanceof InvalidGuardSettingsException invalid) {
        return invalid.problems();
      }
    }
    throw new AssertionError("not a failure over guard's settings", context.getStartupFailure());
  }

  private static void replaceVariables(MutablePropertySources sources, Map<String, Object> variables) {
    String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
    SystemEnvironmentPropertySource source = new SystemEnvironmentPropertySource(name, variables);
    if (sources.contains(name)) {
      sources.replace(name, source);
    } else {
      sources.addLast(source);
    }
  }
}
