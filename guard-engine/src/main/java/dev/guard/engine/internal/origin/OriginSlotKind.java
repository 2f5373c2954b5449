package dev.guard.engine.internal.origin;

import dev.guard.api.rule.OriginRule;
import dev.guard.api.internal.RuleLimits;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Compiles a resource's origin rule into an {@link OriginSlot}. A resource has at most one
 * origin rule: a second, different one is refused when the rules are loaded or declared
 * (exact duplicates collapse before they get here), rather than dropped silently. The slot keeps
 * no state but its refusals, which an unchanged rule keeps.
 */
public final class OriginSlotKind implements SlotKind<OriginRule> {

  /** The origin slot's position in the chain: first of all protections. */
  public static final int ORDER = -6000;

  @Override
  public int order() {
    return ORDER;
  }

  @Override
  public Class<OriginRule> ruleType() {
    return OriginRule.class;
  }

  @Override
  public Slot compile(
      String resource, List<OriginRule> rules, @Nullable Slot previous, SlotContext context) {
    if (rules.size() > RuleLimits.MAX_ORIGIN_RULES_PER_RESOURCE) {
      throw new IllegalArgumentException("a resource has at most one origin rule, but '"
          + resource + "' was given " + rules.size() + ": " + rules
          + "; list every origin in one allow or deny rule");
    }
    OriginRule rule = rules.get(0);
    if (previous instanceof OriginSlot && ((OriginSlot) previous).rule.equals(rule)) {
      return previous;
    }
    return new OriginSlot(rule);
  }
}
