package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.testsupport.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rule loading, carry-over of statistics, listeners and the caps' overflow policies. */
class RegistryTest {

  private static final String OVERFLOW = GuardEngine.OVERFLOW_RESOURCE;

  private final List<String> events = new ArrayList<>();
  private final EngineListener recorder =
      new EngineListener() {
        @Override
        public void onRulesReplaced(String resource, List<Rule> previous, List<Rule> current) {
          events.add("rules " + resource + " " + previous.size() + "->" + current.size());
        }

        @Override
        public void onCapExceeded(Cap cap, String name) {
          events.add(cap + " " + name);
        }
      };

  @Test
  void loadRules_replacesRulesAndKeepsStatistics() {
    Scenario s = new Scenario(GuardEngine.builder().listener(recorder));
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1))));
    assertThat(s.calls("R", 2)).isEqualTo("PB");

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 2))));

    assertThat(s.engine.rules("R")).containsExactly(FlowRule.qps("R", 2));
    assertThat(s.calls("R", 2)).as("the earlier pass still counts").isEqualTo("PB");
    assertThat(s.engine.stats("R").totalPass()).isEqualTo(2);
    assertThat(events).containsExactly("rules R 0->1", "rules R 1->1");
  }

  @Test
  void loadRules_identical_isSilentNoOp() {
    Scenario s = new Scenario(GuardEngine.builder().listener(recorder));
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1))));
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1), FlowRule.qps("R", 1))));

    assertThat(events).containsExactly("rules R 0->1");
    assertThat(s.engine.rules("R")).hasSize(1);
  }

  @Test
  void loadRules_ruleForAnotherResource_isRejected() {
    Scenario s = new Scenario();

    assertThatThrownBy(() -> s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("X", 1)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rule.resource")
        .hasMessageContaining("'X'");
  }

  @Test
  void resourceCap_unknownResourceWhenFull_runsOnTheOverflowResourceAndReports() {
    Scenario s = new Scenario(GuardEngine.builder().maxResources(1).listener(recorder));
    s.call("first");

    assertThat(s.call("second")).isEqualTo("P");

    assertThat(s.engine.resources()).containsExactlyInAnyOrder("first", OVERFLOW);
    assertThat(s.engine.stats(OVERFLOW).totalPass()).isEqualTo(1);
    assertThat(s.engine.overflows(Cap.RESOURCES)).isEqualTo(1);
    assertThat(events).containsExactly("RESOURCES second");
    assertThatThrownBy(() -> s.engine.apply(s.engine.ruleSet().withRulesOf("second", List.of(FlowRule.qps("second", 1)))))
        .isInstanceOf(dev.guard.api.rule.InvalidRulesException.class)
        .hasMessageContaining("maxResources 1");
  }

  @Test
  void resourceCap_callsOnNewNamesWhenFull_meetSystemRulesAndCountAsInbound() {
    Scenario s = new Scenario(GuardEngine.builder().maxResources(2));
    s.engine.apply(s.engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxInboundQps(3))));
    s.call("a");
    s.call("b");

    StringBuilder sprayed = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      sprayed.append(s.call("sprayed-" + i));
    }

    assertThat(sprayed).hasToString("P" + "B".repeat(49));
    assertThat(s.engine.inboundStats().totalPass()).isEqualTo(3);
    assertThat(s.engine.inboundStats().totalRefused()).isEqualTo(49);
    assertThat(s.engine.stats(OVERFLOW).totalRefused()).isEqualTo(49);
    assertThat(s.engine.resources()).hasSize(3);
  }

  @Test
  void resourceCap_overflowResource_takesRulesWhenFull_andTheyLimitNewNames() {
    Scenario s = new Scenario(GuardEngine.builder().maxResources(1));
    s.call("a");

    s.engine.apply(s.engine.ruleSet().withRulesOf(OVERFLOW, List.of(FlowRule.qps(OVERFLOW, 2))));

    assertThat(s.call("b") + s.call("c") + s.call("d")).isEqualTo("PPB");
    assertThat(s.calls("a", 3)).as("a resource of its own is not limited").isEqualTo("PPP");
  }

  @Test
  void resourceCap_handleOnANameWhenFull_keepsItsName_andCannotTakeRules() {
    Scenario s = new Scenario(GuardEngine.builder().maxResources(1));
    s.call("a");

    GuardedResource late = s.engine.resource("late");

    assertThat(late.name()).isEqualTo("late");
    assertThatThrownBy(() -> late.declare(List.of(FlowRule.qps("late", 1))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("maxResources 1");
    String answer = late.call("x", input -> input + "!");
    assertThat(answer).isEqualTo("x!");
    assertThat(s.engine.stats(OVERFLOW).totalPass()).isEqualTo(1);
  }

  @Test
  void contextCap_newNameWhenFull_fallsBackToDefaultContextAndKeepsRules() {
    Scenario s = new Scenario(GuardEngine.builder().maxContexts(1).listener(recorder));
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1))));
    try (var ignored = s.engine.resource("one").context("one", "").openContext()) {
      s.call("R");
    }

    try (var ignored = s.engine.resource("two").context("two", "").openContext()) {
      assertThat(s.call("R")).as("rules still apply").isEqualTo("B");
    }
    assertThat(s.engine.overflows(Cap.CONTEXTS)).isEqualTo(1);
    assertThat(s.engine.entranceStats("two")).isEmpty();
  }

  @Test
  void originCap_newOriginWhenFull_isMeasuredWithoutOriginNode() {
    Scenario s = new Scenario(GuardEngine.builder().maxOriginsPerResource(1).listener(recorder));
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1).withOrigin("b"))));
    try (var ignored = s.engine.resource("web").context("web", "a").openContext()) {
      s.call("R");
    }

    try (var ignored = s.engine.resource("web").context("web", "b").openContext()) {
      assertThat(s.calls("R", 2)).as("b's rule has no node to measure").isEqualTo("PP");
    }
    assertThat(s.engine.overflows(Cap.ORIGINS)).isEqualTo(2);
    assertThat(s.engine.stats("R").origin("b")).isEmpty();
  }

  @Test
  void builder_optionSetTwice_isRejected() {
    assertThatThrownBy(() -> GuardEngine.builder().maxResources(1).maxResources(2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("maxResources");
    assertThatThrownBy(() -> GuardEngine.builder().maxContexts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxContexts must be > 0, was 0");
    assertThatThrownBy(() -> GuardEngine.builder().secondWindow(3, java.time.Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3");
  }

  @Test
  void openContext_reservedOrBlankName_isRejected() {
    Scenario s = new Scenario();

    assertThatThrownBy(() -> s.engine.resource("guard_default_context").context("guard_default_context", "").openContext())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reserved");
    assertThatThrownBy(() -> s.engine.resource("R").context(" ", "").openContext())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("entrance must not be blank");
  }

  @Test
  void openContext_insideAnother_keepsTheOuterOne() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("C", List.of(FlowRule.qps("C", 0)
        .withStrategy(dev.guard.api.rule.FlowRule.Strategy.ENTRANCE, "outer"))));

    try (var outer = s.engine.resource("outer").context("outer", "").openContext()) {
      try (var inner = s.engine.resource("inner").context("inner", "").openContext()) {
        assertThat(inner.opened()).isFalse();
        assertThat(s.call("C")).isEqualTo("B");
      }
    }
  }

  @Test
  void contextStatistics_recordedOnlyWhereMeasuredUnlessEnabled() {
    Scenario plain = new Scenario();
    Scenario everywhere = new Scenario(GuardEngine.builder().contextStatistics(true));

    for (Scenario s : List.of(plain, everywhere)) {
      try (var ignored = s.engine.resource("web").context("web", "").openContext()) {
        s.call("R");
      }
      assertThat(s.engine.stats("R").totalPass()).isEqualTo(1);
    }

    assertThat(plain.engine.stats("R").context("web")).get()
        .satisfies(node -> assertThat(node.totalPass()).isZero());
    assertThat(everywhere.engine.stats("R").context("web")).get()
        .satisfies(node -> assertThat(node.totalPass()).isEqualTo(1));
    assertThat(everywhere.engine.entranceStats("web")).get()
        .satisfies(node -> assertThat(node.totalPass()).isEqualTo(1));
  }

  @Test
  void contextStatistics_ruleAddedWhileCallsRun_keepsGaugesBalanced() {
    Scenario s = new Scenario();
    var before = s.engine.resource("C").enter();
    s.engine.apply(s.engine.ruleSet().withRulesOf("C", List.of(FlowRule.qps("C", 10)
        .withStrategy(dev.guard.api.rule.FlowRule.Strategy.ENTRANCE, "guard_default_context"))));
    var after = s.engine.resource("C").enter();
    after.close();
    before.close();

    assertThat(s.engine.stats("C").concurrency()).isZero();
    assertThat(s.engine.stats("C").context("guard_default_context")).get()
        .satisfies(node -> assertThat(node.concurrency()).isZero());
  }
}
