package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.traffic.FlowArbitraries;
import dev.guard.testkit.ManualClock;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The parser on random and mutated documents: it returns a rule set or throws {@link
 * InvalidRulesException}, nothing else, and an engine given its result either takes the whole set
 * or keeps its rules. Generated rules read back equal.
 */
class RuleFormatProperties {

  private static final RuleSet BEFORE = RuleSet.of(List.of(FlowRule.qps("before", 1)));
  private static final String GOLDEN = RuleFormatTest.golden("flow.json");

  /** Parses and applies; the engine ends with the parsed set or the one it had. */
  private static void parseAndApply(String text) {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).maxResources(20).build();
    engine.apply(BEFORE);
    RuleSet parsed = null;
    try {
      parsed = RuleFormat.parse(text);
      engine.apply(parsed);
    } catch (InvalidRulesException refused) {
      assertThat(refused.errors()).isNotEmpty();
    }
    assertThat(engine.ruleSet()).isIn(BEFORE, parsed);
    if (parsed != null) {
      assertThat(RuleFormat.parse(RuleFormat.write(parsed))).isEqualTo(parsed);
    }
  }

  @Property(tries = 300)
  void randomText_isParsedOrRefused(@ForAll("randomText") String text) {
    parseAndApply(text);
  }

  @Property(tries = 500)
  void mutatedDocument_isParsedOrRefused_neverHalfApplied(@ForAll("mutated") String text) {
    parseAndApply(text);
  }

  @Property(tries = 200)
  void generatedRules_writtenAndRead_areEqual(@ForAll("ruleLists") List<FlowRule> rules) {
    RuleSet written = RuleSet.of(rules);

    assertThat(RuleFormat.parse(RuleFormat.write(written))).isEqualTo(written);
  }

  @Provide
  Arbitrary<String> randomText() {
    Arbitrary<String> tokens = Arbitraries.of("{", "}", "[", "]", ",", ":", "\"version\"", "1",
        "\"flow\"", "\"resource\"", "\"qps\"", "\"a\"", "-5", "1e999", "null", "true", "\"PT1S\"",
        "\"warmUp\"", "\"pacing\"", "\"period\"", " ", "\"", "\\", "0.5");
    Arbitrary<String> structured = tokens.list().ofMaxSize(40).map(list -> String.join("", list));
    return Arbitraries.oneOf(List.of(Arbitraries.strings().ofMaxLength(200), structured));
  }

  @Provide
  Arbitrary<String> mutated() {
    Arbitrary<Integer> at = Arbitraries.integers().between(0, GOLDEN.length());
    Arbitrary<Integer> length = Arbitraries.integers().between(0, 40);
    Arbitrary<String> insert = Arbitraries.of("-", "0", "9e9", "\"", "{", "}", "[", "]", ",",
        "null", "\"x\"", "\"PT-1S\"", "\"qps\": 1, ", "\"concurrency\": 2, ", "\"bogus\": 0, ", "");
    return Combinators.combine(at, length, insert).as((start, cut, text) -> {
      int end = Math.min(GOLDEN.length(), start + cut);
      return GOLDEN.substring(0, start) + text + GOLDEN.substring(end);
    });
  }

  @Provide
  Arbitrary<List<FlowRule>> ruleLists() {
    Arbitrary<FlowRule> rules = Arbitraries.of("search", "orders", "pay")
        .flatMap(FlowArbitraries::flowRules);
    Arbitrary<FlowRule> scoped = Combinators.combine(rules,
            Arbitraries.of("default", "other", "mobile", " padded "))
        .as(FlowRule::withOrigin);
    return scoped.list().ofMinSize(1).ofMaxSize(6);
  }
}
