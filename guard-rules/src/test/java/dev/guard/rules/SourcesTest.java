package dev.guard.rules;

import dev.guard.spi.RulePart;
import static org.assertj.core.api.Assertions.assertThat;
import dev.guard.spi.RuleSource;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The class-path and memory sources, and state kept across reloads through a source. */
class SourcesTest {

  @Test
  void classpath_appliesTheShippedDocument() {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();

    engine.attach(RuleSources.classpath("shipped-rules.json"), RulePart.all());

    assertThat(engine.ruleSet()).isEqualTo(RuleFormatTest.FLOW);
    assertThat(engine.ruleHistory()).extracting(RuleSet.Revision::source)
        .containsExactly("classpath:shipped-rules.json");
  }

  @Test
  void classpath_missingDocument_failsTheAttach() {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();

    assertThatThrownBy(() -> engine.attach(RuleSources.classpath("nowhere.json"), RulePart.all()))
        .isInstanceOf(InvalidRulesException.class)
        .hasMessageContaining("classpath:nowhere.json: is not on the class path");
  }

  @Test
  void memory_writeAppliesAtOnce_andARefusedSetIsNotHeld() {
    GuardEngine engine =
        GuardEngine.builder().clock(new ManualClock()).maxResources(1).build();
    MemoryRuleSource source = (MemoryRuleSource) RuleSources.memory("admin", RuleSet.empty());
    engine.attach(source, RulePart.all());
    RuleSet one = RuleSet.of(List.of(FlowRule.qps("a", 1)));

    source.write(one);
    assertThatThrownBy(() -> source.write(
        RuleSet.of(List.of(FlowRule.qps("b", 1), FlowRule.qps("c", 1)))))
        .isInstanceOf(InvalidRulesException.class);

    assertThat(engine.ruleSet()).isEqualTo(one);
    assertThat(source.rules()).isEqualTo(one);
    assertThat(engine.ruleHistory()).extracting(RuleSet.Revision::source)
        .containsExactly("memory:admin");
  }

  /** Passes out of 12 calls at the start of one second of the engine's clock. */
  private static int passes(GuardEngine engine, ManualClock clock) {
    int passed = 0;
    for (int i = 0; i < 12; i++) {
      try (Entry ignored = engine.resource("R").entryType(EntryType.IN).enter()) {
        passed++;
      } catch (RefusedException refused) {
        // counted by its absence
      }
    }
    clock.advance(Duration.ofSeconds(1));
    return passed;
  }

  @Test
  void reloadThroughASource_keepsTheStateOfUnchangedRulesOfEveryKind() {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    FlowRule warmUp = FlowRule.qps("R", 10).withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(10)));
    RuleSource.Writable source = RuleSources.memory("test", RuleSet.of(List.of(warmUp)));
    engine.attach(source, RulePart.all());
    clock.advance(Duration.ofSeconds(60));
    int first = passes(engine, clock);
    for (int k = 1; k < 16; k++) {
      passes(engine, clock);
    }
    assertThat(first).isLessThan(10);
    assertThat(passes(engine, clock)).isEqualTo(10);

    source.write(RuleSet.of(List.of(warmUp, FlowRule.concurrency("other", 3))));

    assertThat(passes(engine, clock)).as("the warm-up stays hot").isEqualTo(10);
  }
}
