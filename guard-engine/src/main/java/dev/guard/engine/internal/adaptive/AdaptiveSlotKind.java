package dev.guard.engine.internal.adaptive;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.PeriodStats;
import dev.guard.api.rule.RuleState;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Compiles a resource's adaptive concurrency rule into an {@link AdaptiveSlot}. A resource has at
 * most one such rule; a second, different one is refused when rules are loaded or declared. An
 * unchanged rule keeps its limit, its calls in flight and its window across a reload; a changed
 * rule starts again from its initial limit (calls admitted before keep the old state, which they
 * give back at exit).
 */
public final class AdaptiveSlotKind implements SlotKind<AdaptiveConcurrencyRule> {

  /** The slot's position in the chain: after flow control, before circuit breakers. */
  public static final int ORDER = -1500;

  /** The one instance, so that chains can be asked for its slot. */
  public static final AdaptiveSlotKind INSTANCE = new AdaptiveSlotKind();

  private AdaptiveSlotKind() {}

  /**
   * The state of a chain's adaptive concurrency rule; read only, never on the call path.
   *
   * @param chain a resource's chain
   * @return its state, or an empty list when the chain has no such rule
   */
  public static List<RuleState> states(Chain chain) {
    if (!(chain.slotOf(INSTANCE) instanceof AdaptiveSlot slot)) {
      return List.of();
    }
    AdaptiveLimit limit = slot.limit;
    return List.of(new RuleState.AdaptiveConcurrencyState(limit.rule, limit.limit(),
        limit.inFlight(), limit.baselineRtMs(), limit.lastRtMs(), limit.remeasuring()));
  }

  /**
   * The limit in force of a chain's adaptive concurrency rule, read without allocating (for the
   * metrics history).
   *
   * @param chain a resource's chain
   * @return the limit, or {@link PeriodStats#NO_ADAPTIVE_LIMIT} when the chain has no such rule
   */
  public static int limitOf(Chain chain) {
    return chain.slotOf(INSTANCE) instanceof AdaptiveSlot slot
        ? slot.limit.limit() : PeriodStats.NO_ADAPTIVE_LIMIT;
  }

  @Override
  public int order() {
    return ORDER;
  }

  @Override
  public Class<AdaptiveConcurrencyRule> ruleType() {
    return AdaptiveConcurrencyRule.class;
  }

  @Override
  public Slot compile(String resource, List<AdaptiveConcurrencyRule> rules,
      @Nullable Slot previous, SlotContext context) {
    if (rules.size() > 1) {
      throw new IllegalArgumentException("a resource has at most one adaptive concurrency rule,"
          + " but '" + resource + "' was given " + rules.size() + ": " + rules);
    }
    AdaptiveConcurrencyRule rule = rules.get(0);
    if (previous instanceof AdaptiveSlot old && old.limit.rule.equals(rule)) {
      return previous;
    }
    return new AdaptiveSlot(new AdaptiveLimit(resource, rule, context.nowMs()));
  }
}
