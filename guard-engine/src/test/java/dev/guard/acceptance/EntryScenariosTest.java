package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Exit ordering, and what the statistics nodes read (docs/BEHAVIOUR.md, "Contexts and entries", "Statistics"). */
class EntryScenariosTest {

  @Test
  void close_outOfOrder_exitsEveryOpenEntryAndThrows() {
    Scenario s = new Scenario();
    ContextScope scope = s.engine.resource("ctx").context("ctx", "").openContext();
    Entry a = s.engine.resource("a").enter();
    Entry b = s.engine.resource("b").enter();

    assertThatThrownBy(a::close).isInstanceOf(IllegalStateException.class);

    assertThat(s.engine.stats("a").concurrency()).isZero();
    assertThat(s.engine.stats("b").concurrency()).isZero();
    scope.close();
    assertThatCode(b::close).doesNotThrowAnyException();
    assertThat(s.engine.stats("b").concurrency()).isZero();
    assertThat(s.engine.stats("b").totalRequest()).isEqualTo(1);
    try (ContextScope next = s.engine.resource("other").context("other", "").openContext()) {
      assertThat(next.opened()).as("the first context was cleared").isTrue();
    }
  }

  @Test
  void close_twice_isHarmless() {
    Scenario s = new Scenario();
    Entry entry = s.engine.resource("R").enter();
    entry.close();
    entry.close();

    assertThat(s.engine.stats("R").concurrency()).isZero();
    assertThat(s.engine.stats("R").successQps()).isEqualTo(1.0);
  }

  @Test
  void stats_afterCallsErrorsAndABlock_matchTheReferenceReads() {
    Scenario s = new Scenario();
    try (Entry ok = s.engine.resource("R").entryType(EntryType.IN).enter()) {
      s.clock.advanceMillis(10);
    }
    try (Entry failing = s.engine.resource("R").entryType(EntryType.IN).enter()) {
      s.clock.advanceMillis(30);
      failing.recordError(new IllegalStateException("boom"));
    }
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 2))));
    assertThat(s.call("R")).isEqualTo("B");

    var stats = s.engine.stats("R");
    assertThat(stats.passQps()).isEqualTo(2.0);
    assertThat(stats.successQps()).isEqualTo(2.0);
    assertThat(stats.averageRt()).isEqualTo(20.0);
    assertThat(stats.minRt()).isEqualTo(10.0);
    assertThat(stats.exceptionQps()).isEqualTo(1.0);
    assertThat(stats.refusedQps()).isEqualTo(1.0);
    assertThat(stats.totalRequest()).isEqualTo(3);
    assertThat(stats.concurrency()).isZero();
    assertThat(s.engine.inboundStats().passQps()).isEqualTo(2.0);

    s.at(1000);
    assertThat(stats.passQps()).isZero();
    assertThat(stats.previousPassQps()).isEqualTo(2.0);
    assertThat(stats.minRt()).isEqualTo(5000.0);
    assertThat(stats.averageRt()).isZero();
    assertThat(stats.totalPass()).isEqualTo(2);
  }

  @Test
  void stats_unknownResource_readsZero() {
    Scenario s = new Scenario();

    assertThat(s.engine.stats("nothing").passQps()).isZero();
    assertThat(s.engine.stats("nothing").origin("x")).isEmpty();
    assertThat(s.engine.stats("nothing").context("x")).isEmpty();
  }
}
