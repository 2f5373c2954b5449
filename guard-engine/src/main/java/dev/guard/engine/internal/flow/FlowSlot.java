package dev.guard.engine.internal.flow;

import dev.guard.api.BlockedException;
import dev.guard.engine.internal.CallEntry;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.stat.StatisticNode;
import org.jspecify.annotations.Nullable;

/**
 * Applies a resource's flow rules in order (origin-specific before {@code default}); the first
 * refusal wins. A controller that admits after a wait is honoured here, through the engine's time
 * source and without holding any lock; an interrupted wait gives its reservation back, restores
 * the interrupt flag and refuses the call, so it is counted as blocked.
 */
final class FlowSlot implements Slot {

  final CompiledFlowRule[] rules;
  private final SlotContext engine;

  FlowSlot(CompiledFlowRule[] rules, SlotContext engine) {
    this.rules = rules;
    this.engine = engine;
  }

  @Override
  public @Nullable BlockedException enter(CallEntry entry) {
    for (CompiledFlowRule rule : rules) {
      StatisticNode node = rule.select(entry, engine);
      if (node == null) {
        continue;
      }
      int permits = entry.count();
      long nanos = rule.precise ? engine.preciseNowNanos() : entry.nowNanos();
      long decision =
          rule.controller.decide(node, permits, entry.prioritized(), nanos, entry.nowMs());
      if (decision == Decision.BLOCK) {
        return rule.refusal;
      }
      if (decision != Decision.PASS && !await(entry, rule, node, decision)) {
        return rule.refusal;
      }
    }
    return null;
  }

  /** Waits out an admitting decision; false if the wait was interrupted (reservation released). */
  private boolean await(CallEntry entry, CompiledFlowRule rule, StatisticNode node, long decision) {
    long waitNanos = Decision.waitNanos(decision);
    boolean borrowed = Decision.borrowed(decision);
    long nowMs = entry.nowMs();
    long bucketMs = nowMs + waitNanos / 1_000_000L;
    int permits = entry.count();
    if (borrowed) {
      node.addWaiting(bucketMs, permits);
      node.addOccupiedPass(nowMs, permits);
      entry.markBorrowed();
    }
    try {
      engine.sleep(waitNanos);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      if (borrowed) {
        node.cancelWaiting(nowMs, bucketMs, permits);
      } else {
        rule.controller.cancel(decision, permits);
      }
      return false;
    }
    entry.waited(waitNanos);
    return true;
  }
}
