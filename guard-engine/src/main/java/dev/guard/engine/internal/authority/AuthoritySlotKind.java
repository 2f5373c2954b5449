package dev.guard.engine.internal.authority;

import dev.guard.api.rule.AuthorityRule;
import dev.guard.api.rule.RuleLimits;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Compiles a resource's authority rule into an {@link AuthoritySlot}. A resource has at most one
 * authority rule: a second, different one is refused when the rules are loaded or declared
 * (exact duplicates collapse before they get here), rather than dropped silently. The slot keeps
 * no state but its refusals, which an unchanged rule keeps.
 */
public final class AuthoritySlotKind implements SlotKind<AuthorityRule> {

  /** The authority slot's position in the chain: first of all protections. */
  public static final int ORDER = -6000;

  @Override
  public int order() {
    return ORDER;
  }

  @Override
  public Class<AuthorityRule> ruleType() {
    return AuthorityRule.class;
  }

  @Override
  public Slot compile(
      String resource, List<AuthorityRule> rules, @Nullable Slot previous, SlotContext context) {
    if (rules.size() > RuleLimits.MAX_AUTHORITY_RULES_PER_RESOURCE) {
      throw new IllegalArgumentException("a resource has at most one authority rule, but '"
          + resource + "' was given " + rules.size() + ": " + rules
          + "; list every origin in one allow or deny rule");
    }
    AuthorityRule rule = rules.get(0);
    if (previous instanceof AuthoritySlot && ((AuthoritySlot) previous).rule.equals(rule)) {
      return previous;
    }
    return new AuthoritySlot(rule);
  }
}
