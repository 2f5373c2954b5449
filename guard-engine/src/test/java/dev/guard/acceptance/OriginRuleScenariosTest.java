package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardedResource;
import dev.guard.testsupport.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SEMANTICS A22 (origin rule), with guard's trimmed lists in the † row. */
class OriginRuleScenariosTest {

  private final Scenario s = new Scenario();

  {
    s.engine.apply(s.engine.ruleSet().withRulesOf("Rw", List.of(OriginRule.allow("Rw", "appA, appB"))));
    s.engine.apply(s.engine.ruleSet().withRulesOf("Rb", List.of(OriginRule.deny("Rb", "appA,appB"))));
  }

  private String callFrom(String resource, String origin) {
    GuardedResource handle = s.engine.resource(resource).origin(origin);
    try (Entry ignored = handle.enter()) {
      return "P";
    } catch (RefusedException.Origin refused) {
      assertThat(refused.origin()).isEqualTo(origin);
      return "B";
    }
  }

  @ParameterizedTest(name = "{0} from ''{1}'' -> {2}")
  @CsvSource({
      "Rw, appA, P",
      "Rw, appB, P", // † Sentinel keeps " appB" with its space and refuses
      "Rw, appC, B",
      "Rw, '', P",
      "Rw, app, B",
      "Rb, appA, B",
      "Rb, appC, P",
      "Rb, app, P",
      "Rb, '', P"})
  void a22_originLists_decideAsTheTableSays(String resource, String origin, String expected) {
    assertThat(callFrom(resource, origin)).isEqualTo(expected);
  }

  @Test
  void originFromAnEnclosingContext_isChecked() {
    try (var scope = s.engine.resource("web").context("web", "appC").openContext()) {
      assertThatThrownBy(() -> s.engine.resource("Rw").enter())
          .isInstanceOfSatisfying(RefusedException.Origin.class, refused -> {
            assertThat(refused.origin()).isEqualTo("appC");
            assertThat(refused.rule()).isEqualTo(OriginRule.allow("Rw", "appA", "appB"));
            assertThat(refused).hasMessageContaining("origin 'appC'");
          });
    }
  }

  @Test
  void secondOriginRule_forOneResource_isRefusedAndTheFirstStays() {
    assertThatThrownBy(() -> s.engine.apply(s.engine.ruleSet().withRulesOf("Rw", List.of(
        OriginRule.allow("Rw", "appA"), OriginRule.deny("Rw", "appC")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most one origin rule")
        .hasMessageContaining("'Rw' was given 2");

    assertThat(s.engine.rules("Rw")).containsExactly(OriginRule.allow("Rw", "appA, appB"));
  }

  @Test
  void declaringAnOriginRule_replacesTheOldOne_andKeepsOtherKinds() {
    GuardedResource rw = s.engine.resource("Rw");
    rw.declare(List.of(FlowRule.qps("Rw", 10)));

    rw.declare(List.of(OriginRule.deny("Rw", "appA")));

    assertThat(s.engine.rules("Rw"))
        .containsExactly(FlowRule.qps("Rw", 10), OriginRule.deny("Rw", "appA"));
    assertThat(callFrom("Rw", "appC")).isEqualTo("P");
    assertThat(callFrom("Rw", "appA")).isEqualTo("B");
  }

  @Test
  void refusals_ofOneOrigin_areShared() {
    assertThat(refusal("Rb", "appA")).isSameAs(refusal("Rb", "appA"));
  }

  private RefusedException.Origin refusal(String resource, String origin) {
    try (Entry ignored = s.engine.resource(resource).origin(origin).enter()) {
      throw new AssertionError("admitted");
    } catch (RefusedException.Origin refused) {
      return refused;
    }
  }
}
