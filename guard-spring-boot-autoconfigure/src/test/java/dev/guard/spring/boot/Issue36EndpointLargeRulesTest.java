package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.rules.RuleFormat;
import dev.guard.testkit.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rules applied in code may be too large to write as a document; the actuator's read still
 * answers, and says why the document is missing.
 */
class Issue36EndpointLargeRulesTest {

  @Test
  void read_rulesTooLargeToWrite_answersWithWhyInsteadOfFailing() {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    List<Rule> rules = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      rules.add(FlowRule.qps("orders-" + (i % 5), 1000).withOrigin("partner-" + "x".repeat(200) + i));
    }
    engine.apply(RuleSet.of(rules));

    Map<String, Object> view = new GuardEndpoint(engine, null, null).guard();

    assertThat(view.get("rules")).isInstanceOfSatisfying(Map.class, document ->
        assertThat((String) document.get("unwritable"))
            .contains("must be at most " + RuleFormat.MAX_DOCUMENT_CHARS));
  }
}
