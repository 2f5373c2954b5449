package dev.guard.engine.internal;

import dev.guard.api.rule.Rule;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import dev.guard.engine.internal.flow.FlowSlotKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Compiles a resource's rules into its {@link Chain}: one slot per rule kind present, in slot
 * order, carrying over the state of unchanged rules from the previous chain. Protections plug in
 * by adding their {@link SlotKind} to {@link #KINDS}.
 */
final class ChainCompiler {

  /** Every rule kind the engine knows, in slot order. */
  static final List<SlotKind<?>> KINDS =
      sorted(List.of(new FlowSlotKind()));

  private ChainCompiler() {}

  /**
   * Validates and compiles rules.
   *
   * @param resource the resource
   * @param rules its rules; exact duplicates collapse
   * @param previous the chain being replaced
   * @param context engine services
   * @return the new chain
   * @throws IllegalArgumentException if a rule names another resource or is of an unknown kind
   */
  static Chain compile(
      String resource, List<? extends Rule> rules, Chain previous, SlotContext context) {
    List<Rule> unique = List.copyOf(new LinkedHashSet<>(rules));
    for (Rule rule : unique) {
      if (!rule.resource().equals(resource)) {
        throw new IllegalArgumentException(
            "rule.resource must be '" + resource + "', was '" + rule.resource() + "'");
      }
      if (KINDS.stream().noneMatch(kind -> kind.ruleType().isInstance(rule))) {
        throw new IllegalArgumentException(
            "rule type must be one of the engine's rule kinds, was " + rule.getClass().getName());
      }
    }
    if (unique.isEmpty()) {
      return Chain.EMPTY;
    }
    List<SlotKind<?>> kinds = new ArrayList<>();
    List<Slot> slots = new ArrayList<>();
    for (SlotKind<?> kind : KINDS) {
      Slot slot = compileKind(kind, resource, unique, previous, context);
      if (slot != null) {
        kinds.add(kind);
        slots.add(slot);
      }
    }
    return new Chain(unique, kinds, slots);
  }

  private static <R extends Rule> @Nullable Slot compileKind(
      SlotKind<R> kind, String resource, List<Rule> rules, Chain previous, SlotContext context) {
    List<R> own = new ArrayList<>();
    for (Rule rule : rules) {
      if (kind.ruleType().isInstance(rule)) {
        own.add(kind.ruleType().cast(rule));
      }
    }
    if (own.isEmpty()) {
      return null;
    }
    return kind.compile(resource, List.copyOf(own), previous.slotOf(kind), context);
  }

  private static List<SlotKind<?>> sorted(List<SlotKind<?>> kinds) {
    List<SlotKind<?>> copy = new ArrayList<>(kinds);
    copy.sort(Comparator.comparingInt(SlotKind::order));
    return List.copyOf(copy);
  }
}
