package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.engine.GuardEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class RulesFromPropertiesTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class));

  @Test
  void rules_in_properties_are_the_engines_rules() {
    runner
        .withPropertyValues(
            "guard.rules.flow[0].resource=search",
            "guard.rules.flow[0].qps=50",
            "guard.rules.flow[1].resource=checkout",
            "guard.rules.flow[1].qps=40",
            "guard.rules.flow[1].warm-up.period=PT10S",
            "guard.rules.circuit-breakers[0].resource=inventory",
            "guard.rules.circuit-breakers[0].errorRatio=0.5",
            "guard.rules.circuit-breakers[0].openFor=PT5S")
        .run(
            context -> {
              GuardEngine engine = context.getBean(GuardEngine.class);
              assertThat(engine.rules("search")).containsExactly(FlowRule.qps("search", 50));
              List<Rule> checkout = engine.rules("checkout");
              assertThat(checkout).hasSize(1);
              assertThat(((FlowRule) checkout.get(0)).threshold()).isEqualTo(40);
              assertThat(engine.rules("inventory")).singleElement()
                  .isInstanceOf(CircuitBreakerRule.class);
              assertThat(engine.ruleHistory()).last()
                  .satisfies(r -> assertThat(r.source()).isEqualTo("spring:guard.rules"));
              assertThat(context.getBean(GuardRules.class).source())
                  .contains("spring:guard.rules");
            });
  }

  @Test
  void every_rule_kind_of_the_document_is_a_property_too() {
    runner
        .withPropertyValues(
            "guard.rules.adaptive-concurrency[0].resource=inventory",
            "guard.rules.adaptive-concurrency[0].algorithm=aimd",
            "guard.rules.adaptive-concurrency[0].max-limit=200",
            "guard.rules.per-value[0].resource=profile",
            "guard.rules.per-value[0].argumentIndex=0",
            "guard.rules.per-value[0].threshold=100",
            "guard.rules.per-value[0].period=PT1M",
            "guard.rules.per-value[0].quotas[0].limit=10000",
            "guard.rules.per-value[0].quotas[0].period=P1D")
        .run(
            context -> {
              GuardEngine engine = context.getBean(GuardEngine.class);
              assertThat(engine.rules("inventory")).singleElement()
                  .isInstanceOfSatisfying(AdaptiveConcurrencyRule.class, rule -> {
                    assertThat(rule.algorithm()).isEqualTo(AdaptiveConcurrencyRule.Algorithm.AIMD);
                    assertThat(rule.maxLimit()).isEqualTo(200);
                  });
              assertThat(engine.rules("profile")).singleElement()
                  .isInstanceOfSatisfying(PerValueRule.class,
                      rule -> assertThat(rule.quotas()).hasSize(1));
            });
  }

  @Test
  void an_adaptive_limit_out_of_its_bounds_fails_the_start_up_with_its_property_path() {
    runner
        .withPropertyValues("guard.rules.adaptive-concurrency[0].resource=inventory",
            "guard.rules.adaptive-concurrency[0].minLimit=0")
        .run(
            context ->
                assertThat(context).hasFailed().getFailure()
                    .hasStackTraceContaining("guard.rules.adaptiveConcurrency[0].minLimit"));
  }

  @Test
  void a_bad_value_fails_the_start_up_with_its_property_path() {
    runner
        .withPropertyValues("guard.rules.flow[0].resource=search", "guard.rules.flow[0].qps=-5")
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("guard.rules.flow[0].qps: must be finite and >= 0, was -5"));
  }

  @Test
  void an_unknown_field_fails_the_start_up_with_its_property_path() {
    runner
        .withPropertyValues("guard.rules.flow[0].resource=search", "guard.rules.flow[0].qsp=5")
        .run(
            context ->
                assertThat(context).hasFailed().getFailure()
                    .hasStackTraceContaining("guard.rules.flow[0].qsp"));
  }

  @Test
  void a_resource_named_by_digits_stays_a_name() {
    runner
        .withPropertyValues("guard.rules.flow[0].resource=404", "guard.rules.flow[0].qps=1")
        .run(
            context ->
                assertThat(context.getBean(GuardEngine.class).rules("404"))
                    .containsExactly(FlowRule.qps("404", 1)));
  }

  @Test
  void environment_variables_spell_rules_as_spring_spells_them() {
    runner
        .withInitializer(context -> environmentVariables(context, Map.of(
            "GUARD_RULES_FLOW_0_RESOURCE", "checkout",
            "GUARD_RULES_FLOW_0_QPS", "40",
            "GUARD_RULES_FLOW_0_WARMUP_PERIOD", "PT10S",
            "GUARD_RULES_CIRCUITBREAKERS_0_RESOURCE", "inventory",
            "GUARD_RULES_CIRCUITBREAKERS_0_ERRORRATIO", "0.5",
            "GUARD_RULES_CIRCUITBREAKERS_0_OPENFOR", "PT5S",
            "guard_rules_origins_0_resource", "admin",
            "GUARD_RULES_ORIGINS_0_ALLOWORIGINS", "ops-console, billing",
            "GUARD_RULESFILE_UNRELATED", "x",
            "PATH", "/usr/bin")))
        .run(
            context -> {
              GuardEngine engine = context.getBean(GuardEngine.class);
              assertThat(engine.rules("checkout")).singleElement()
                  .isInstanceOfSatisfying(FlowRule.class, rule -> {
                    assertThat(rule.threshold()).isEqualTo(40);
                    assertThat(rule.warmUp()).isNotNull();
                  });
              assertThat(engine.rules("inventory")).singleElement()
                  .isInstanceOf(CircuitBreakerRule.class);
              assertThat(engine.rules("admin"))
                  .containsExactly(OriginRule.allow("admin", "ops-console", "billing"));
            });
  }

  @Test
  void a_misspelt_environment_variable_fails_the_start_up_with_its_property_path() {
    runner
        .withInitializer(context -> environmentVariables(context, Map.of(
            "GUARD_RULES_FLOW_0_RESOURCE", "checkout", "GUARD_RULES_FLOW_0_QSP", "40")))
        .run(
            context ->
                assertThat(context).hasFailed().getFailure()
                    .hasStackTraceContaining(
                        "guard.rules.flow[0].qsp (GUARD_RULES_FLOW_0_QSP): is not a field here"));
  }

  @Test
  void an_environment_variable_with_an_empty_segment_fails_the_start_up_naming_it() {
    runner
        .withInitializer(context -> environmentVariables(context, Map.of(
            "GUARD_RULES_FLOW__0_QPS", "40")))
        .run(
            context ->
                assertThat(context).hasFailed().getFailure()
                    .hasStackTraceContaining("GUARD_RULES_FLOW__0_QPS: is not a property path"));
  }

  @Test
  void a_comma_separated_string_is_a_list_of_origins() {
    runner
        .withPropertyValues("guard.rules.origins[0].resource=admin",
            "guard.rules.origins[0].deny-origins=batch,crawler")
        .run(
            context ->
                assertThat(context.getBean(GuardEngine.class).rules("admin"))
                    .containsExactly(OriginRule.deny("admin", "batch", "crawler")));
  }

  /** Puts variables where the operating system's would be, as Spring reads them. */
  private static void environmentVariables(ConfigurableApplicationContext context,
      Map<String, Object> variables) {
    MutablePropertySources sources = context.getEnvironment().getPropertySources();
    String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
    SystemEnvironmentPropertySource source = new SystemEnvironmentPropertySource(name, variables);
    if (sources.contains(name)) {
      sources.replace(name, source);
    } else {
      sources.addLast(source);
    }
  }

  @Test
  void a_list_comes_whole_from_the_source_of_highest_precedence() {
    runner
        .withPropertyValues(
            "guard.rules.flow[0].resource=low", "guard.rules.flow[0].qps=1",
            "guard.rules.flow[1].resource=low2", "guard.rules.flow[1].qps=2")
        .withInitializer(
            context -> {
              MutablePropertySources sources = context.getEnvironment().getPropertySources();
              sources.addFirst(new MapPropertySource("override", java.util.Map.of(
                  "guard.rules.flow[0].resource", "high", "guard.rules.flow[0].qps", 9)));
            })
        .run(
            context -> {
              GuardEngine engine = context.getBean(GuardEngine.class);
              assertThat(engine.rules("high")).containsExactly(FlowRule.qps("high", 9));
              assertThat(engine.rules("low")).isEmpty();
              assertThat(engine.rules("low2")).isEmpty();
            });
  }

  @Test
  void reload_applies_changed_rules_and_keeps_them_when_invalid() {
    runner
        .withPropertyValues("guard.rules.flow[0].resource=search", "guard.rules.flow[0].qps=5")
        .run(
            context -> {
              GuardEngine engine = context.getBean(GuardEngine.class);
              GuardRules rules = context.getBean(GuardRules.class);
              MapPropertySource changed = new MapPropertySource("changed", new java.util.HashMap<>(
                  java.util.Map.of("guard.rules.flow[0].resource", "search",
                      "guard.rules.flow[0].qps", "7")));
              context.getEnvironment().getPropertySources().addFirst(changed);
              assertThat(rules.reload()).isTrue();
              assertThat(engine.rules("search")).containsExactly(FlowRule.qps("search", 7));

              changed.getSource().put("guard.rules.flow[0].qps", "-1");
              assertThat(rules.reload()).isFalse();
              assertThat(engine.rules("search")).containsExactly(FlowRule.qps("search", 7));
            });
  }

  @Test
  void rules_file_is_applied(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("rules.json");
    Files.writeString(file, "{\"version\":1,\"flow\":[{\"resource\":\"a\",\"qps\":3}]}");
    runner
        .withPropertyValues("guard.rules-file=" + file)
        .run(
            context ->
                assertThat(context.getBean(GuardEngine.class).rules("a"))
                    .containsExactly(FlowRule.qps("a", 3)));
  }

  @Test
  void two_places_for_the_rules_fail_the_start_up(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("rules.json");
    Files.writeString(file, "{\"version\":1}");
    runner
        .withPropertyValues("guard.rules-file=" + file, "guard.rules.flow[0].resource=a",
            "guard.rules.flow[0].qps=1")
        .run(context -> assertThat(context).hasFailed().getFailure()
            .hasStackTraceContaining("guard's rules come from one place"));
  }

  @Test
  void engine_options_are_properties() {
    runner
        .withPropertyValues("guard.rule-history=3", "guard.max-resources=10")
        .run(
            context -> {
              GuardEngine engine = context.getBean(GuardEngine.class);
              for (int i = 0; i < 5; i++) {
                engine.apply(dev.guard.api.rule.RuleSet.of(FlowRule.qps("r", i + 1)));
              }
              assertThat(engine.ruleHistory()).hasSize(3);
            });
  }

  @Test
  void an_engine_option_the_builder_refuses_fails_the_start_up_with_its_property() {
    runner
        .withPropertyValues("guard.max-resources=-1")
        .run(context -> assertThat(context).hasFailed().getFailure()
            .hasStackTraceContaining("guard.max-resources: maxResources must be"));
  }

  @Test
  void half_a_second_window_fails_the_start_up() {
    runner
        .withPropertyValues("guard.second-window.buckets=4")
        .run(context -> assertThat(context).hasFailed().getFailure()
            .hasStackTraceContaining("guard.second-window: set both buckets and length"));
  }
}
