package dev.guard.engine.internal.chain;

import dev.guard.api.BlockedException;
import dev.guard.engine.internal.CallEntry;
import org.jspecify.annotations.Nullable;

/**
 * One protection step of a resource's compiled chain, built from that resource's rules of one
 * kind. Slots are immutable apart from the rule state they own (controllers, breakers) and are
 * shared by all threads.
 */
public interface Slot {

  /**
   * Decides an entry. Refuses by returning the refusing rule's {@link BlockedException} (not by
   * throwing it: the engine decides whether the caller sees an exception or a value); may wait
   * through the engine's time source before returning (pacing).
   *
   * @param entry the entry being decided
   * @return null to admit, or the refusal
   */
  @Nullable BlockedException enter(CallEntry entry);

  /**
   * Sees the outcome of an admitted entry at exit (after statistics were recorded).
   *
   * @param entry the exiting entry
   */
  default void exit(CallEntry entry) {}
}
