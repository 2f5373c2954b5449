package dev.guard.api.rule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class AuthorityRuleTest {

  @Test
  void commaSeparatedNames_areSplitAndTrimmed() {
    AuthorityRule rule = AuthorityRule.allow("Rw", "appA, appB");

    assertThat(rule.origins()).containsExactly("appA", "appB");
    assertThat(rule).isEqualTo(AuthorityRule.allow("Rw", " appB ", "appA"));
  }

  @Test
  void constructor_normalisesTooSoEqualRulesAreEqual() {
    assertThat(new AuthorityRule("r", AuthorityStrategy.DENY, Set.of(" a,b")))
        .isEqualTo(AuthorityRule.deny("r", "a", "b"));
  }

  @Test
  void admits_allowList_admitsListedAndEmptyOrigins() {
    AuthorityRule rule = AuthorityRule.allow("Rw", "appA, appB");

    assertThat(rule.admits("appA")).isTrue();
    assertThat(rule.admits("appB")).isTrue();
    assertThat(rule.admits("")).isTrue();
    assertThat(rule.admits("appC")).isFalse();
    assertThat(rule.admits("app")).isFalse();
  }

  @Test
  void admits_denyList_refusesOnlyListedOrigins() {
    AuthorityRule rule = AuthorityRule.deny("Rb", "appA,appB");

    assertThat(rule.admits("appA")).isFalse();
    assertThat(rule.admits("appC")).isTrue();
    assertThat(rule.admits("app")).isTrue();
    assertThat(rule.admits("")).isTrue();
  }

  @Test
  void blankNames_orNoNames_areRefused() {
    assertThatThrownBy(() -> AuthorityRule.allow("r"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("origins must list at least one origin, was []");
    assertThatThrownBy(() -> AuthorityRule.allow("r", "appA,,appB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("origins must not contain a blank name, was 'appA,,appB'");
    assertThatThrownBy(() -> AuthorityRule.deny("r", " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("origins must not contain a blank name, was ' '");
  }

  @Test
  void resource_blank_isRefused() {
    assertThatThrownBy(() -> AuthorityRule.allow(" ", "a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("resource must not be blank, was ' '");
  }
}
