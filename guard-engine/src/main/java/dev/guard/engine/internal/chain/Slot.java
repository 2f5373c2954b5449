package dev.guard.engine.internal.chain;

import dev.guard.api.RefusedException;
import org.jspecify.annotations.Nullable;

/**
 * One protection step of a resource's compiled chain, built from that resource's rules of one
 * kind. Slots are immutable apart from the rule state they own (controllers, breakers, buckets)
 * and are shared by all threads.
 *
 * <p>The life of a call through a slot has three hooks:
 *
 * <ol>
 *   <li>{@link #enter}: admit or refuse. A slot that grants the call something of its own state
 *       (a budget permit, a paced reservation, per-value tokens, a half-open probe) remembers
 *       it on the entry with {@link Call#keepGrant} / {@link Call#keepGrantBits}; the
 *       values are private to the slot.
 *   <li>{@link #abandon}: a later slot refused the admitted call, so it never runs; the slot gives
 *       back what it granted. The chain calls it on every slot that admitted the call, in reverse
 *       order, so no slot needs to know about another.
 *   <li>{@link #exit}: the admitted call ended; {@link Call#rtMs()} and {@link
 *       Call#error()} tell how it went.
 * </ol>
 */
public interface Slot {

  /**
   * Decides an entry. Refuses by returning the refusing rule's {@link RefusedException} (not by
   * throwing it: the engine decides whether the caller sees an exception or a value); may wait
   * through the engine's time source before returning (pacing). A slot that refuses gives back
   * what its own rules granted to this call before returning.
   *
   * @param entry the entry being decided
   * @return null to admit, or the refusal
   */
  @Nullable RefusedException enter(Call entry);

  /**
   * Gives back what {@link #enter} granted to an entry that a later slot refused.
   *
   * @param entry the refused entry; its grants are as this slot left them
   */
  default void abandon(Call entry) {}

  /**
   * Sees the outcome of an admitted entry at exit (after statistics were recorded).
   *
   * @param entry the exiting entry
   */
  default void exit(Call entry) {}
}
