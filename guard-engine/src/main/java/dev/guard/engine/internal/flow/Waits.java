package dev.guard.engine.internal.flow;

import dev.guard.api.RefusedException;
import dev.guard.engine.internal.chain.Call;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.quota.QuotaBuckets;
import dev.guard.engine.internal.stat.BorrowPlacement;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The waits of a call that a rule admits later: a paced slot or a pass borrowed from a future
 * bucket ({@link Decision}), and a SHOULD_WAIT of the token service. A wait goes through the
 * engine's time source and holds no lock; a waiting call allocates one small record per wait.
 *
 * <p>Invariants: the rule's quotas are taken before the wait (a quota that refuses cancels the
 * paced slot, and there is no borrowed pass yet to give back); the reservation ({@link Held}) joins
 * the call's chain before the call sleeps, so an interrupted wait (interrupt flag restored, call
 * refused) and any later refusal give back the paced slot ({@link
 * TrafficShapingController#cancel}) or the borrowed pass ({@link StatisticNode#cancelWaiting}),
 * with the quotas, through that chain.
 */
final class Waits {

  private final SlotContext engine;

  Waits(SlotContext engine) {
    this.engine = engine;
  }

  /** What one rule reserved for a call it made wait. */
  private static final class Held extends Kept {
    final StatisticNode node;
    final long decision;
    final long decidedAtNanos;
    final long decidedAtMs;
    final long admittedAtMs;
    /** Where a borrowed pass was counted, once registered; given back from there only. */
    BorrowPlacement placement = BorrowPlacement.NOWHERE;

    Held(CompiledFlowRule rule, StatisticNode node, long decision, long decidedAtNanos,
        long decidedAtMs, @Nullable Kept earlier) {
      super(rule, earlier);
      this.node = node;
      this.decision = decision;
      this.decidedAtNanos = decidedAtNanos;
      this.decidedAtMs = decidedAtMs;
      this.admittedAtMs = decidedAtMs + Decision.waitNanos(decision) / 1_000_000L;
    }

    @Override
    void giveBack(int permits) {
      if (Decision.borrowed(decision)) {
        node.cancelWaiting(decidedAtMs, admittedAtMs, permits, placement);
      } else {
        rule.controller.cancel(decision, permits);
      }
      QuotaBuckets quotas = rule.quotas;
      if (quotas != null) {
        quotas.giveBack(permits); // a waiting rule took its quotas before the wait
      }
    }
  }

  /**
   * Admits a call a rule's controller admits after a wait: takes the rule's quotas, keeps the
   * reservation on the call's chain and waits it out.
   *
   * @return null once the call waited, else the refusal (the quotas' or, when the wait was
   *     interrupted, the rule's); what the chain holds is for the caller to give back
   */
  @Nullable RefusedException admitAfterWait(Call entry, CompiledFlowRule rule, StatisticNode node,
      long decision, long decidedAtNanos) {
    if (!QuotaTakes.takeBeforeWait(rule, decision, entry.count(), decidedAtNanos)) {
      return Objects.requireNonNull(rule.quotaRefusal);
    }
    Held reserved = new Held(rule, node, decision, decidedAtNanos, entry.nowMs(),
        (Kept) entry.grant());
    entry.keepGrant(reserved);
    return await(entry, reserved) ? null : rule.refusal;
  }

  /**
   * Sleeps through the engine's time source and moves the call's decision time on.
   *
   * @return false if the wait was interrupted (the interrupt flag is restored)
   */
  boolean sleep(Call entry, long waitNanos) {
    try {
      engine.sleep(waitNanos);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
    entry.waited(waitNanos);
    return true;
  }

  /** Waits out an admitting decision; false if the wait was interrupted. */
  private boolean await(Call entry, Held reserved) {
    long waitNanos = Decision.waitNanos(reserved.decision);
    int permits = entry.count();
    if (Decision.borrowed(reserved.decision)) {
      reserved.placement = reserved.node.addWaiting(reserved.admittedAtMs, permits);
      reserved.node.addOccupiedPass(reserved.decidedAtMs, permits);
      entry.markBorrowed();
    }
    // A precise decision fixed a deadline: sleep only what is left of it, so that a thread delayed
    // between deciding and sleeping does not wait longer than its turn.
    long remaining = reserved.rule.precise
        ? waitNanos - (engine.preciseNowNanos() - reserved.decidedAtNanos)
        : waitNanos;
    try {
      engine.sleep(remaining);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
    entry.waited(waitNanos);
    if (Decision.borrowed(reserved.decision)) {
      reserved.node.startBucket(reserved.admittedAtMs); // its borrowed pass arrives now
    }
    return true;
  }
}
