package dev.guard.engine.internal.chain;

import dev.guard.api.rule.Rule;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Builds the slot of one rule kind for one resource. A chain holds one slot per kind that has
 * rules (for an {@linkplain #engineWide() engine-wide} kind: while the engine has such rules), ordered by {@link #order()} (the numbers of the reference model: authority −6000, system
 * −5000, per-value −3000, flow −2000, circuit breakers −1000). Adding a protection means
 * adding one kind to the engine's list of kinds; what the kind needs from the engine it declares
 * here or reads through the {@link SlotContext}.
 *
 * @param <R> the rule type
 */
public interface SlotKind<R extends Rule> {

  /**
   * The position of this kind's slot in the chain; lower runs first.
   *
   * @return the order number
   */
  int order();

  /**
   * The rules this kind compiles.
   *
   * @return the rule type
   */
  Class<R> ruleType();

  /**
   * Tells whether this kind's rules cover the whole engine instead of one resource (system
   * protection). Such rules are never among a resource's own rules: the chain of every resource
   * gets this kind's slot, compiled from {@link SlotContext#engineWideRules()}, while the engine
   * has rules of the kind, and every chain is recompiled when they change.
   *
   * @return whether the kind is engine-wide
   */
  default boolean engineWide() {
    return false;
  }

  /**
   * Tells whether these rules read per-context statistics, so that calls of the resource must be
   * counted on their per-context nodes.
   *
   * @param rules the resource's rules of this kind
   * @return whether per-context nodes must record
   */
  default boolean measuresContexts(List<R> rules) {
    return false;
  }

  /**
   * Builds the slot for a resource's rules of this kind.
   *
   * @param resource the resource
   * @param rules its rules of this kind, non-empty, in evaluation order
   * @param previous the slot this kind built for the previous rules of the resource, if any: state
   *     of rules present in both (controllers, breakers) must carry over
   * @param context the engine services slots may need
   * @return the slot
   */
  Slot compile(String resource, List<R> rules, @Nullable Slot previous, SlotContext context);
}
