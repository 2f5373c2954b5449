package dev.guard.engine.internal.flow;

import org.jspecify.annotations.Nullable;

/**
 * Something one flow rule took for a call other than an immediate pass (a wait's reservation, a
 * token service grant, quotas), linked newest first to what the earlier rules took: the chain a
 * call keeps on its entry ({@link dev.guard.engine.internal.chain.Call#keepGrant}).
 *
 * <p>Invariants: a link is added to the entry's chain as soon as its rule took it, before
 * anything that may refuse the call afterwards; each link gives back exactly what its rule took,
 * once, and never throws. So a call that is refused after all, in the flow slot or by a later slot,
 * gives everything back by walking one chain ({@link #giveBackAll}), newest first.
 */
abstract class Kept {
  final CompiledFlowRule rule;
  final @Nullable Kept earlier;

  Kept(CompiledFlowRule rule, @Nullable Kept earlier) {
    this.rule = rule;
    this.earlier = earlier;
  }

  /**
   * Gives back what this link's rule took for a call that does not run after all.
   *
   * @param permits the call's permits
   */
  abstract void giveBack(int permits);

  /** Gives back every link of a chain, newest first. */
  static void giveBackAll(@Nullable Kept newest, int permits) {
    for (Kept k = newest; k != null; k = k.earlier) {
      k.giveBack(permits);
    }
  }
}
