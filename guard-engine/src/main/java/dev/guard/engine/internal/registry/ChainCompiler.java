package dev.guard.engine.internal.registry;

import dev.guard.api.rule.Rule;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import dev.guard.engine.internal.adaptive.AdaptiveSlotKind;
import dev.guard.engine.internal.breaker.BreakerSlotKind;
import dev.guard.engine.internal.origin.OriginSlotKind;
import dev.guard.engine.internal.flow.FlowSlotKind;
import dev.guard.engine.internal.system.SystemProtection;
import dev.guard.engine.internal.system.SystemSlotKind;
import dev.guard.engine.internal.pervalue.PerValueSlotKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Compiles a resource's rules into its {@link Chain}: one slot per rule kind present, in slot
 * order, carrying over the state of unchanged rules from the previous chain. Engine-wide kinds
 * (system protection) compile the engine's rules of their kind ({@link
 * SlotContext#engineWideRules()}) into every chain instead; a resource's own rules never include
 * them. Protections plug in by adding their {@link SlotKind} to {@link #kinds}.
 */
public final class ChainCompiler {

  /**
   * The slot kinds of one engine in chain order (origin, system, per-value, flow, adaptive
   * concurrency, circuit breaker); only the system kind holds engine state, the engine's system protection.
   *
   * @param system the engine's system protection
   * @return the kinds, sorted by order
   */
  public static List<SlotKind<?>> kinds(SystemProtection system) {
    return sorted(List.of(new OriginSlotKind(), new SystemSlotKind(system),
        PerValueSlotKind.INSTANCE, FlowSlotKind.INSTANCE, AdaptiveSlotKind.INSTANCE,
        BreakerSlotKind.INSTANCE));
  }

  private ChainCompiler() {}

  /**
   * Validates and compiles rules.
   *
   * @param resource the resource
   * @param rules its rules; exact duplicates collapse
   * @param defaults rules for every resource (resource {@code "*"}) that apply to the kinds the
   *     resource has no rules of
   * @param previous the chain being replaced
   * @param context engine services
   * @param kinds the slot kinds to compile, in slot order ({@link #kinds} in an engine)
   * @return the new chain
   * @throws IllegalArgumentException if a rule names another resource, is of an unknown kind or
   *     of an engine-wide kind, or a kind refuses its rules
   */
  static Chain compile(String resource, List<? extends Rule> rules, List<? extends Rule> defaults,
      Chain previous, SlotContext context, List<SlotKind<?>> kinds) {
    List<Rule> unique = List.copyOf(new LinkedHashSet<>(rules));
    for (Rule rule : unique) {
      SlotKind<?> kind = kindOf(rule, kinds);
      if (kind != null && kind.engineWide()) {
        throw new IllegalArgumentException(rule.getClass().getSimpleName() + " " + rule
            + " covers every inbound call of the engine, not resource '" + resource
            + "': apply it in the rule set with GuardEngine.apply(..)");
      }
      if (!rule.resource().equals(resource)) {
        throw new IllegalArgumentException(
            "rule.resource must be '" + resource + "', was '" + rule.resource() + "'");
      }
      if (kind == null) {
        throw new IllegalArgumentException(
            "rule type must be one of the engine's rule kinds, was " + rule.getClass().getName());
      }
    }
    List<Rule> engineWide = context.engineWideRules();
    if (unique.isEmpty() && engineWide.isEmpty() && defaults.isEmpty()) {
      return Chain.EMPTY;
    }
    List<SlotKind<?>> present = new ArrayList<>();
    List<Slot> slots = new ArrayList<>();
    boolean measuresContexts = false;
    for (SlotKind<?> kind : kinds) {
      List<Rule> source = kind.engineWide()
          ? engineWide
          : ownRules(kind, unique).isEmpty() ? List.copyOf(defaults) : unique;
      if (!ownRules(kind, source).isEmpty()) {
        present.add(kind);
        slots.add(compileKind(kind, resource, source, previous, context));
        measuresContexts |= measuresContexts(kind, source);
      }
    }
    return slots.isEmpty() ? Chain.EMPTY : new Chain(unique, present, slots, measuresContexts);
  }

  /**
   * Merges a declaration into a resource's rules: the declared rules replace the rules of the
   * kinds they belong to; rules of other kinds stay.
   *
   * @param current the resource's rules now
   * @param declared the declared rules
   * @return the merged rules, current kinds first
   */
  static List<Rule> merge(
      List<Rule> current, List<? extends Rule> declared, List<SlotKind<?>> kinds) {
    List<Rule> kept = new ArrayList<>();
    List<Rule> replaced = new ArrayList<>();
    for (Rule rule : current) {
      SlotKind<?> kind = kindOf(rule, kinds);
      boolean declaredKind = declared.stream().anyMatch(other -> kindOf(other, kinds) == kind);
      (declaredKind ? replaced : kept).add(rule);
    }
    if (replaced.equals(List.copyOf(new LinkedHashSet<>(declared)))) {
      return current;
    }
    kept.addAll(declared);
    return kept;
  }

  private static @Nullable SlotKind<?> kindOf(Rule rule, List<SlotKind<?>> kinds) {
    for (SlotKind<?> kind : kinds) {
      if (kind.ruleType().isInstance(rule)) {
        return kind;
      }
    }
    return null;
  }

  private static <R extends Rule> List<R> ownRules(SlotKind<R> kind, List<? extends Rule> rules) {
    List<R> own = new ArrayList<>();
    for (Rule rule : rules) {
      if (kind.ruleType().isInstance(rule)) {
        own.add(kind.ruleType().cast(rule));
      }
    }
    return List.copyOf(own);
  }

  private static <R extends Rule> Slot compileKind(
      SlotKind<R> kind, String resource, List<Rule> rules, Chain previous, SlotContext context) {
    return kind.compile(resource, ownRules(kind, rules), previous.slotOf(kind), context);
  }

  private static <R extends Rule> boolean measuresContexts(SlotKind<R> kind, List<Rule> rules) {
    return kind.measuresContexts(ownRules(kind, rules));
  }

  private static List<SlotKind<?>> sorted(List<SlotKind<?>> kinds) {
    List<SlotKind<?>> copy = new ArrayList<>(kinds);
    copy.sort(Comparator.comparingInt(SlotKind::order));
    return List.copyOf(copy);
  }
}
