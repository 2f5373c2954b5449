package dev.guard.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testkit.ManualClock;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Under any sequence of enters, exits (in or out of order, repeated), errors, refusals and time
 * steps, every concurrency gauge returns to zero once all calls end, and passes plus refusals equal
 * the attempts.
 */
class AccountingProperties {

  private static final String[] RESOURCES = {"a", "b", "c"};

  enum Op { ENTER_A, ENTER_B, ENTER_C, CLOSE_TOP, CLOSE_BOTTOM, CLOSE_TWICE, FAIL_TOP, TICK }

  @Provide
  Arbitrary<List<Op>> ops() {
    return Arbitraries.of(Op.class).list().ofMaxSize(60);
  }

  @Property(tries = 300)
  void gaugesReturnToZero_andPassPlusBlockEqualsAttempts(
      @ForAll("ops") List<Op> ops,
      @ForAll boolean inContext) {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    engine.apply(engine.ruleSet().withRulesOf("a", List.of(FlowRule.concurrency("a", 2))));
    engine.apply(engine.ruleSet().withRulesOf("b", List.of(FlowRule.qps("b", 3))));
    engine.apply(engine.ruleSet().withRulesOf("c", List.of(FlowRule.qps("c", 2).withOrigin("app"))));
    ContextScope scope = inContext ? engine.resource("ctx").context("ctx", "app").openContext() : null;
    List<Entry> open = new ArrayList<>();
    List<Entry> closed = new ArrayList<>();
    int attempts = 0;
    for (Op op : ops) {
      switch (op) {
        case ENTER_A, ENTER_B, ENTER_C -> {
          attempts++;
          try {
            open.add(engine.resource(RESOURCES[op.ordinal()]).entryType(EntryType.IN).enter());
          } catch (RefusedException refused) {
            // counted as a refused
          }
        }
        case CLOSE_TOP -> closeAt(open, closed, open.size() - 1);
        case CLOSE_BOTTOM -> closeAt(open, closed, 0);
        case CLOSE_TWICE -> {
          if (!closed.isEmpty()) {
            closeQuietly(closed.get(closed.size() - 1));
          }
        }
        case FAIL_TOP -> {
          if (!open.isEmpty()) {
            open.get(open.size() - 1).recordError(new IllegalStateException("x"));
          }
        }
        case TICK -> clock.advanceMillis(300);
      }
    }
    while (!open.isEmpty()) {
      closeAt(open, closed, open.size() - 1);
    }
    if (scope != null) {
      scope.close();
    }

    long passes = 0;
    long refusals = 0;
    for (String resource : RESOURCES) {
      NodeStats stats = engine.stats(resource);
      assertThat(stats.concurrency()).as(resource).isZero();
      stats = engine.stats(resource);
      passes += stats.totalPass();
      refusals += stats.totalRefused();
      engine.stats(resource).origin("app").ifPresent(o -> assertThat(o.concurrency()).isZero());
      engine.stats(resource).context("ctx").ifPresent(c -> assertThat(c.concurrency()).isZero());
    }
    assertThat(engine.inboundStats().concurrency()).isZero();
    assertThat(passes + refusals).isEqualTo(attempts);
  }

  private static void closeAt(List<Entry> open, List<Entry> closed, int index) {
    if (index < 0 || index >= open.size()) {
      return;
    }
    Entry entry = open.get(index);
    boolean outOfOrder = index != open.size() - 1;
    closeQuietly(entry);
    if (outOfOrder) {
      closed.addAll(open);
      open.clear();
    } else {
      closed.add(open.remove(index));
    }
  }

  private static void closeQuietly(Entry entry) {
    try {
      entry.close();
    } catch (IllegalStateException expected) {
      // every open entry was exited
    }
  }
}
