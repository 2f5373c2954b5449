package dev.guard.engine.internal.chain;

import dev.guard.api.BlockedException;
import dev.guard.engine.internal.CallEntry;

/**
 * One protection step of a resource's compiled chain, built from that resource's rules of one
 * kind. Slots are immutable apart from the rule state they own (controllers, breakers) and are
 * shared by all threads.
 */
public interface Slot {

  /**
   * Decides an entry. Refuses by throwing the refusing rule's {@link BlockedException}; may wait
   * through the engine's time source before returning (pacing).
   *
   * @param entry the entry being decided
   */
  void enter(CallEntry entry);

  /**
   * Sees the outcome of an admitted entry at exit (after statistics were recorded).
   *
   * @param entry the exiting entry
   */
  default void exit(CallEntry entry) {}
}
