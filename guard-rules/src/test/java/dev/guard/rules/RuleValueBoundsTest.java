package dev.guard.rules;

import dev.guard.spi.RulePart;
import static org.assertj.core.api.Assertions.assertThat;
import dev.guard.spi.RuleSource;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.internal.RuleLimits;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Durations too long for {@code Duration.toNanos()} (about 292 years) and the system rule that
 * once made every call of an engine throw: refused where rules are built, in the same words from
 * the Java API (which the DSL builds its rules with) and the JSON format, and values at the bounds apply and leave every call
 * answered (docs/RULES.md, "Value ranges").
 */
class RuleValueBoundsTest {

  private static final String HUGE = "PT2562048H";
  private static final String BAD_SYSTEM =
      "{\"version\": 1, \"system\": [{\"maxAverageRt\": \"" + HUGE + "\"}]}";

  @TempDir Path dir;

  static Stream<Arguments> hugeDurations() {
    String breaker = "{\"version\": 1, \"circuitBreakers\": [{\"resource\": \"r\", ";
    String perValue = "{\"version\": 1, \"perValue\": [{\"resource\": \"r\", \"argumentIndex\": 0, "
        + "\"threshold\": 5, ";
    String cluster = "{\"version\": 1, \"flow\": [{\"resource\": \"r\", \"qps\": 5, \"cluster\": "
        + "{\"flowId\": \"f\", ";
    return Stream.of(
        Arguments.of(breaker + "\"errorRatio\": 0.5, \"openFor\": \"" + HUGE + "\"}]}",
            "rules.circuitBreakers[0].openFor"),
        Arguments.of(breaker + "\"errorRatio\": 0.5, \"window\": \"" + HUGE + "\"}]}",
            "rules.circuitBreakers[0].window"),
        Arguments.of(breaker + "\"errorRatio\": 0.5, \"probeTimeout\": \"" + HUGE + "\"}]}",
            "rules.circuitBreakers[0].probeTimeout"),
        Arguments.of(breaker + "\"slowCallRatio\": 0.5, \"slowerThan\": \"" + HUGE + "\"}]}",
            "rules.circuitBreakers[0].slowerThan"),
        Arguments.of(perValue + "\"period\": \"" + HUGE + "\"}]}", "rules.perValue[0].period"),
        Arguments.of(perValue + "\"pacing\": {\"maxQueueing\": \"" + HUGE + "\"}}]}",
            "rules.perValue[0].pacing.maxQueueing"),
        Arguments.of(cluster + "\"window\": \"" + HUGE + "\"}}]}", "rules.flow[0].cluster.window"),
        Arguments.of(BAD_SYSTEM, "rules.system[0].maxAverageRt"));
  }

  @ParameterizedTest
  @MethodSource("hugeDurations")
  void parse_aDurationBeyondADay_isRefusedNamingTheFieldAndTheValue(String json, String path) {
    assertThatThrownBy(() -> RuleFormat.parse(json))
        .isInstanceOf(InvalidRulesException.class)
        .satisfies(refused -> assertThat(((InvalidRulesException) refused).errors())
            .singleElement().satisfies(error -> {
              assertThat(error.path()).isEqualTo(path);
              assertThat(error.message()).contains("must be", "\"" + HUGE + "\"");
            }));
  }

  @Test
  void openFor_beyondADay_isRefusedInTheSameWordsByTheJavaApiAndTheFormat() {
    Duration huge = Duration.parse(HUGE);
    String words = "must be at most PT24H, was ";

    assertThatThrownBy(() -> CircuitBreakerRule.errorRatio("r", 0.5).withOpenFor(huge))
        .hasMessage("openFor " + words + HUGE);
    assertThatThrownBy(() -> RuleFormat.parse("{\"version\": 1, \"circuitBreakers\": [{"
            + "\"resource\": \"r\", \"errorRatio\": 0.5, \"openFor\": \"" + HUGE + "\"}]}"))
        .hasMessageContaining("rules.circuitBreakers[0].openFor: " + words + "\"" + HUGE + "\"");
  }

  @Test
  void systemRule_withAnAverageRtBeyondADay_cannotBeBuilt() {
    assertThatThrownBy(() -> SystemRule.of().withMaxAverageRt(Duration.parse(HUGE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxAverageRt must be at most PT24H, was " + HUGE);
  }

  @Test
  void systemRule_atTheBound_appliedOrLoaded_leavesEveryCallAnswered() {
    SystemRule longest = SystemRule.of().withMaxAverageRt(RuleLimits.MAX_DURATION);
    RuleSet rules = RuleSet.of(List.of(longest));
    ManualClock clock = new ManualClock();
    GuardEngine applied = GuardEngine.builder().clock(clock).build();
    GuardEngine loaded = GuardEngine.builder().clock(clock).build();

    applied.apply(rules);
    loaded.apply(loaded.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(longest)));

    assertThat(Traffic.answerEveryCall(applied, clock, rules)).isZero();
    assertThat(Traffic.answerEveryCall(loaded, clock, rules)).isZero();
  }

  @Test
  void fileSource_withTheBadSystemRule_refusesItAndCallsGoOn() throws Exception {
    Path file = dir.resolve("rules.json");
    Files.writeString(file, BAD_SYSTEM, StandardCharsets.UTF_8);
    ManualClock clock = ManualClock.parking();
    FileRuleSourceTest.Heard heard = new FileRuleSourceTest.Heard();
    GuardEngine engine = GuardEngine.builder().clock(clock).listener(heard).build();

    try (RuleSource.Writable source = RuleSources.file(file)) {
      engine.attach(source, RulePart.all());

      assertThat(engine.ruleSet()).isEqualTo(RuleSet.empty());
      assertThat(heard.events).singleElement().asString()
          .startsWith("rejected [" + new InvalidRulesException.Error("rules.system[0].maxAverageRt", ""));
      assertThat(Traffic.answerEveryCall(engine, clock, RuleSet.empty())).isZero();
    }
  }
}
