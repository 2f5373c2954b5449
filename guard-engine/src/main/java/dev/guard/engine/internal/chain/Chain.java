package dev.guard.engine.internal.chain;

import dev.guard.api.BlockedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.FlowStrategy;
import dev.guard.api.rule.Rule;
import dev.guard.engine.internal.CallEntry;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The compiled, immutable protection chain of one resource: its rules and one slot per rule kind
 * that has rules, in slot order. A resource without rules has an empty chain, so unused features
 * cost nothing. A rule change compiles a new chain that is swapped in atomically; entries keep the
 * chain they entered with until they exit.
 */
public final class Chain {

  /** The chain of a resource without rules. */
  public static final Chain EMPTY = new Chain(List.of(), List.of(), List.of());

  private final List<Rule> rules;
  private final SlotKind<?>[] kinds;
  private final Slot[] slots;
  private final boolean measuresContexts;

  /**
   * Creates a chain.
   *
   * @param rules the rules, in load order
   * @param kinds the kind of each slot
   * @param slots the slots, in order
   */
  public Chain(List<Rule> rules, List<SlotKind<?>> kinds, List<Slot> slots) {
    this.rules = List.copyOf(rules);
    this.kinds = kinds.toArray(new SlotKind<?>[0]);
    this.slots = slots.toArray(new Slot[0]);
    this.measuresContexts = this.rules.stream().anyMatch(Chain::measuresContext);
  }

  private static boolean measuresContext(Rule rule) {
    return rule instanceof FlowRule && ((FlowRule) rule).strategy() == FlowStrategy.CHAIN;
  }

  /**
   * Tells whether a rule reads per-context statistics (a CHAIN flow rule), so calls of this
   * resource must be counted on their per-context nodes.
   *
   * @return whether per-context nodes must record
   */
  public boolean measuresContexts() {
    return measuresContexts;
  }

  /** The rules this chain was compiled from, in load order. */
  public List<Rule> rules() {
    return rules;
  }

  /**
   * Runs the slots' entry decisions in order until one refuses.
   *
   * @param entry the entry
   * @return null when every slot admitted the entry, else the first refusal
   */
  public @Nullable BlockedException enter(CallEntry entry) {
    for (Slot slot : slots) {
      BlockedException refusal = slot.enter(entry);
      if (refusal != null) {
        return refusal;
      }
    }
    return null;
  }

  /**
   * Lets every slot see an admitted entry's outcome.
   *
   * @param entry the exiting entry
   */
  public void exit(CallEntry entry) {
    for (Slot slot : slots) {
      slot.exit(entry);
    }
  }

  /**
   * The slot a kind built for this chain.
   *
   * @param kind the kind
   * @return its slot, or null if this chain has no rules of that kind
   */
  public @Nullable Slot slotOf(SlotKind<?> kind) {
    for (int i = 0; i < kinds.length; i++) {
      if (kinds[i] == kind) {
        return slots[i];
      }
    }
    return null;
  }
}
