package dev.guard.api.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class OriginRuleTest {

  @Test
  void commaSeparatedNames_areSplitAndTrimmed() {
    OriginRule rule = OriginRule.allow("Rw", "appA, appB");

    assertThat(rule.origins()).containsExactly("appA", "appB");
    assertThat(rule).isEqualTo(OriginRule.allow("Rw", " appB ", "appA"));
  }

  @Test
  void constructor_normalisesTooSoEqualRulesAreEqual() {
    assertThat(new OriginRule("r", OriginRule.Policy.DENY, Set.of(" a,b")))
        .isEqualTo(OriginRule.deny("r", "a", "b"));
  }

  @Test
  void admits_allowList_admitsListedAndEmptyOrigins() {
    OriginRule rule = OriginRule.allow("Rw", "appA, appB");

    assertThat(rule.admits("appA")).isTrue();
    assertThat(rule.admits("appB")).isTrue();
    assertThat(rule.admits("")).isTrue();
    assertThat(rule.admits("appC")).isFalse();
    assertThat(rule.admits("app")).isFalse();
  }

  @Test
  void admits_denyList_refusesOnlyListedOrigins() {
    OriginRule rule = OriginRule.deny("Rb", "appA,appB");

    assertThat(rule.admits("appA")).isFalse();
    assertThat(rule.admits("appC")).isTrue();
    assertThat(rule.admits("app")).isTrue();
    assertThat(rule.admits("")).isTrue();
  }

  @Test
  void blankNames_orNoNames_areRefused() {
    assertThatThrownBy(() -> OriginRule.allow("r"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("origins must list at least one origin, was []");
    assertThatThrownBy(() -> OriginRule.allow("r", "appA,,appB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("origins must not contain a blank name, was 'appA,,appB'");
    assertThatThrownBy(() -> OriginRule.deny("r", " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("origins must not contain a blank name, was ' '");
  }

  @Test
  void resource_blank_isRefused() {
    assertThatThrownBy(() -> OriginRule.allow(" ", "a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resource must not be blank, was ' '");
  }
}
