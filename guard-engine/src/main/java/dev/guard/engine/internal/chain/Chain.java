package dev.guard.engine.internal.chain;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.Rule;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The compiled, immutable protection chain of one resource: its rules and one slot per rule kind
 * that has rules, in slot order. A resource without rules has an empty chain, so unused features
 * cost nothing. A rule change compiles a new chain that is swapped in atomically; entries keep the
 * chain they entered with until they exit.
 *
 * <p>Entering runs the slots in order until one refuses; the slots that admitted the call before
 * then are {@linkplain Slot#abandon abandoned} in reverse order. Each slot sees the entry with the
 * entry's grant cursor on its own position, so the grants it keeps are its own.
 */
public final class Chain {

  /** The most slots a chain can have: one per rule kind. */
  public static final int MAX_SLOTS = 8;

  /** The chain of a resource without rules. */
  public static final Chain EMPTY = new Chain(List.of(), List.of(), List.of(), false);

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
   * @param measuresContexts whether a slot reads per-context statistics
   */
  public Chain(
      List<Rule> rules, List<SlotKind<?>> kinds, List<Slot> slots, boolean measuresContexts) {
    if (slots.size() > MAX_SLOTS) {
      throw new IllegalArgumentException("a chain has at most " + MAX_SLOTS + " slots");
    }
    this.rules = List.copyOf(rules);
    this.kinds = kinds.toArray(new SlotKind<?>[0]);
    this.slots = slots.toArray(new Slot[0]);
    this.measuresContexts = measuresContexts;
  }

  /**
   * Tells whether a slot reads per-context statistics, so calls of this resource must be counted
   * on their per-context nodes.
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
   * Runs the slots' entry decisions in order until one refuses, then abandons the slots that had
   * admitted the call, last first. A slot that throws is treated like one that refuses (the
   * slots before it give back what they granted), and its exception is rethrown for the engine
   * to handle.
   *
   * @param entry the entry
   * @return null when every slot admitted the entry, else the first refusal
   */
  public @Nullable RefusedException enter(Call entry) {
    Slot[] all = slots;
    for (int i = 0; i < all.length; i++) {
      entry.grantCursor(i);
      RefusedException refusal;
      try {
        refusal = all[i].enter(entry);
      } catch (RuntimeException failure) {
        abandon(all, i - 1, entry);
        throw failure;
      }
      if (refusal != null) {
        abandon(all, i - 1, entry);
        return refusal;
      }
    }
    return null;
  }

  private static void abandon(Slot[] all, int last, Call entry) {
    for (int j = last; j >= 0; j--) {
      entry.grantCursor(j);
      all[j].abandon(entry);
    }
  }

  /**
   * Lets every slot see an admitted entry's outcome. A slot that throws does not keep the later
   * ones from seeing it; the first exception is rethrown once every slot has run.
   *
   * @param entry the exiting entry
   */
  public void exit(Call entry) {
    Slot[] all = slots;
    @Nullable RuntimeException first = null;
    for (int i = 0; i < all.length; i++) {
      entry.grantCursor(i);
      try {
        all[i].exit(entry);
      } catch (RuntimeException failure) {
        first = first == null ? failure : first;
      }
    }
    if (first != null) {
      throw first;
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
