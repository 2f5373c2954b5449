package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;


import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.FakeSystemStatus;
import dev.guard.testkit.ManualClock;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Rule documents written from generated rule sets of every kind, then mutated ({@link
 * RuleDocuments#documents()}). Every document is either refused with {@link
 * InvalidRulesException} whose errors each name a path, or accepted; an accepted set reads back equal from what {@link
 * RuleFormat#write} makes of it, and an engine on a manual clock takes it (an accepted set always
 * applies) and then answers every call of every resource by passing it or refusing it with a
 * {@code RefusedException}. The outcomes are counted in the jqwik statistics report.
 */
class RuleDocumentProperties {

  @Property(tries = 3000)
  void mutatedDocument_isRefusedWithPathsOrAppliesAndAnswersEveryCall(
      @ForAll("documents") String document) {
    RuleSet parsed;
    try {
      parsed = RuleFormat.parse(document);
    } catch (InvalidRulesException refused) {
      assertThat(refused.errors()).isNotEmpty().allSatisfy(RuleDocumentProperties::namesAPath);
      Statistics.label("outcome").collect("rejected by the format");
      return;
    }
    assertThat(RuleFormat.parse(RuleFormat.write(parsed))).isEqualTo(parsed);
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).maxResources(50)
        .systemStatus(new FakeSystemStatus().cpuUsage(0.5).systemLoad(1)).build();
    engine.apply(parsed); // an accepted set always applies
    assertThat(engine.ruleSet()).isEqualTo(parsed);
    Traffic.answerEveryCall(engine, clock, parsed);
    Statistics.label("outcome").collect("accepted and applied");
  }

  private static void namesAPath(InvalidRulesException.Error error) {
    assertThat(error.path()).startsWith("rules");
    assertThat(error.message()).isNotBlank()
        .doesNotContain("Feature", "StreamReadConstraints", "`", "jackson");
  }

  @Provide
  Arbitrary<String> documents() {
    return RuleDocuments.documents();
  }
}
