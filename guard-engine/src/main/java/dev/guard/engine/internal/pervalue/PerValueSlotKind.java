package dev.guard.engine.internal.pervalue;

import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.RuleState;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import dev.guard.engine.internal.quota.LimitBudget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Compiles per-value rules into a {@link PerValueSlot}, in load order. A rule equal to one of the
 * previous slot keeps that rule's compiled form, and so every value's bucket, schedule or running
 * count; a changed rule starts with no values.
 */
public final class PerValueSlotKind implements SlotKind<PerValueRule> {

  /** The per-value slot's position in the chain: after system protection, before flow. */
  public static final int ORDER = -3000;

  /** The one instance, so that chains can be asked for its slot. */
  public static final PerValueSlotKind INSTANCE = new PerValueSlotKind();

  private PerValueSlotKind() {}

  /**
   * The state of a chain's per-value rules, in load order; read only, never on the call path.
   *
   * @param chain a resource's chain
   * @param nowNanos engine time in nanoseconds (precise)
   * @return one state per rule; empty when there is none
   */
  public static List<RuleState> hotValueStates(Chain chain, long nowNanos) {
    if (!(chain.slotOf(INSTANCE) instanceof PerValueSlot slot)) {
      return List.of();
    }
    List<RuleState> states = new ArrayList<>();
    for (CompiledPerValueRule compiled : slot.rules) {
      states.add(new RuleState.PerValueState(compiled.rule, compiled.table.size(),
          compiled.table.limitedValues(RuleState.PerValueState.MAX_LISTED, nowNanos)));
    }
    return List.copyOf(states);
  }

  /**
   * Adds what a chain's per-value rules leave a call with these arguments, in load order (see
   * {@link CompiledPerValueRule#budgetsOf}); read only, never on the call path.
   *
   * @param chain a resource's chain
   * @param args the call's arguments
   * @param nowNanos engine time in nanoseconds
   * @param into where the budgets go
   */
  public static void budget(Chain chain, @Nullable Object[] args, long nowNanos,
      List<LimitBudget> into) {
    if (args.length == 0 || !(chain.slotOf(INSTANCE) instanceof PerValueSlot slot)) {
      return;
    }
    for (CompiledPerValueRule compiled : slot.rules) {
      int at = compiled.resolve(args.length);
      Object value = at < 0 ? null : args[at];
      if (value != null) {
        compiled.budgetsOf(value, nowNanos, into);
      }
    }
  }

  @Override
  public int order() {
    return ORDER;
  }

  @Override
  public Class<PerValueRule> ruleType() {
    return PerValueRule.class;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if the resource has more than 64 per-value rules
   */
  @Override
  public Slot compile(
      String resource, List<PerValueRule> rules, @Nullable Slot previous, SlotContext context) {
    if (rules.size() > PerValueSlot.MAX_RULES) {
      throw new IllegalArgumentException("per-value rules of '" + resource + "' must be at most "
          + PerValueSlot.MAX_RULES + ", was " + rules.size());
    }
    Map<PerValueRule, CompiledPerValueRule> kept = new HashMap<>();
    if (previous instanceof PerValueSlot) {
      for (CompiledPerValueRule old : ((PerValueSlot) previous).rules) {
        kept.put(old.rule, old);
      }
    }
    CompiledPerValueRule[] compiled = new CompiledPerValueRule[rules.size()];
    for (int i = 0; i < compiled.length; i++) {
      PerValueRule rule = rules.get(i);
      CompiledPerValueRule same = kept.get(rule);
      compiled[i] = same != null ? same : new CompiledPerValueRule(resource, rule, context);
    }
    return new PerValueSlot(compiled, context);
  }
}
