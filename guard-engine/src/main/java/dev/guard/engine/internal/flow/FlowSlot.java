package dev.guard.engine.internal.flow;

import dev.guard.api.BlockedException;
import dev.guard.engine.TokenResult;
import dev.guard.engine.TokenService;
import dev.guard.engine.internal.CallEntry;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Applies a resource's flow rules in order (origin-specific before {@code default}); the first
 * refusal wins. A controller that admits after a wait is honoured here, through the engine's time
 * source and without holding any lock, and the following rules then decide at the later time.
 *
 * <p>A call that does not get through gives back everything its rules reserved for it: the paced
 * slot ({@link TrafficShapingController#cancel}) or the borrowed pass ({@link
 * StatisticNode#cancelWaiting}) of every rule that made it wait, and the permits of every rule that
 * admitted it at once ({@link TrafficShapingController#refund}). This happens when its wait is
 * interrupted (the interrupt flag is restored and the call is refused, so it is counted as
 * blocked), when a later flow rule refuses it, and when a later slot refuses it ({@link
 * #abandon}). Without this, a borrowed pass of a refused call would stay counted as a pass (passes
 * plus blocks would exceed the attempts), a paced slot would be lost to a call that never ran, and
 * a budget would be spent on it.
 *
 * <p>What an admitted call was granted is kept on its entry: the grant bits hold which of the
 * first {@value #TRACKED_RULES} rules admitted it at once (low bits) and when (engine ms, high
 * bits); the grant object is the chain of reservations of rules that made it wait. The path
 * without waits allocates nothing; a waiting call allocates one small record per wait.
 *
 * <p>A cluster rule asks the engine's token service first (docs/BEHAVIOUR.md, "Cluster flow
 * control"): OK passes, SHOULD_WAIT waits through the engine's time source and passes, BLOCKED
 * refuses, and anything else (no service, a failure, an exception) either checks the rule locally
 * like any other rule or passes, as the rule's cluster mode says. The service's passes are not
 * given back when the call is refused later: the service has no way to take them back.
 */
final class FlowSlot implements Slot {

  /** Rules whose immediate passes are refunded; beyond them (a rare rule count) they are not. */
  static final int TRACKED_RULES = 16;

  private static final long RULE_MASK = (1L << TRACKED_RULES) - 1;

  final CompiledFlowRule[] rules;
  private final SlotContext engine;

  FlowSlot(CompiledFlowRule[] rules, SlotContext engine) {
    this.rules = rules;
    this.engine = engine;
  }

  /** What one rule reserved for a call it made wait; linked to the earlier rules' reservations. */
  private static final class Held {
    final CompiledFlowRule rule;
    final StatisticNode node;
    final long decision;
    final long decidedAtNanos;
    final long decidedAtMs;
    final long admittedAtMs;
    final @Nullable Held earlier;

    Held(CompiledFlowRule rule, StatisticNode node, long decision, long decidedAtNanos,
        long decidedAtMs, @Nullable Held earlier) {
      this.rule = rule;
      this.node = node;
      this.decision = decision;
      this.decidedAtNanos = decidedAtNanos;
      this.decidedAtMs = decidedAtMs;
      this.admittedAtMs = decidedAtMs + Decision.waitNanos(decision) / 1_000_000L;
      this.earlier = earlier;
    }
  }

  @Override
  public @Nullable BlockedException enter(CallEntry entry) {
    Held held = null;
    long passedAtOnce = 0L; // bit i: rule i admitted the call without a wait
    long passedAtMs = entry.nowMs();
    for (int i = 0; i < rules.length; i++) {
      CompiledFlowRule rule = rules[i];
      StatisticNode node = rule.select(entry, engine);
      if (node == null) {
        continue;
      }
      int permits = entry.count();
      if (rule.cluster != null) {
        long verdict = askCluster(rule, permits, entry.prioritized());
        if (verdict == CLUSTER_BLOCK) {
          release(held, permits);
          refund(passedAtOnce, permits, passedAtMs);
          return rule.refusal;
        }
        if (verdict >= 0) {
          if (verdict > 0 && !awaitCluster(entry, verdict)) {
            release(held, permits);
            refund(passedAtOnce, permits, passedAtMs);
            return rule.refusal;
          }
          continue;
        }
        // CLUSTER_LOCAL: the rule is checked against this instance's statistics below
      }
      long nanos = rule.precise ? engine.preciseNowNanos() : entry.nowNanos();
      long decision =
          rule.controller.decide(node, permits, entry.prioritized(), nanos, entry.nowMs());
      if (decision == Decision.PASS) {
        if (passedAtOnce == 0L) {
          passedAtMs = entry.nowMs();
        }
        if (i < TRACKED_RULES) {
          passedAtOnce |= 1L << i;
        }
        continue;
      }
      if (decision != Decision.BLOCK) {
        held = new Held(rule, node, decision, nanos, entry.nowMs(), held);
        if (await(entry, held)) {
          continue;
        }
      } else {
        release(held, permits);
      }
      refund(passedAtOnce, permits, passedAtMs);
      return rule.refusal;
    }
    entry.keepGrantBits(passedAtOnce == 0L ? 0L : passedAtMs << TRACKED_RULES | passedAtOnce);
    entry.keepGrant(held);
    return null;
  }

  @Override
  public void abandon(CallEntry entry) {
    long bits = entry.grantBits();
    release((Held) entry.grant(), entry.count());
    refund(bits & RULE_MASK, entry.count(), bits >>> TRACKED_RULES);
  }

  /** {@link #askCluster}: check the rule locally. */
  private static final long CLUSTER_LOCAL = -1L;

  /** {@link #askCluster}: refuse the call. */
  private static final long CLUSTER_BLOCK = -2L;

  /**
   * Asks the engine's token service about a cluster rule: the wait in nanoseconds before the call
   * passes (0: at once), {@link #CLUSTER_BLOCK}, or {@link #CLUSTER_LOCAL} when the service is
   * absent, fails, throws or will not decide and the rule falls back to a local check (a rule that
   * does not fall back passes then).
   */
  private long askCluster(CompiledFlowRule rule, int permits, boolean prioritized) {
    TokenService service = engine.tokenService();
    TokenResult result = null;
    if (service != null) {
      try {
        result = service.requestToken(rule.rule, permits, prioritized);
      } catch (RuntimeException failed) {
        result = null; // a failing service is a failure like any other: fall back
      }
    }
    if (result != null) {
      TokenResult.Status status = result.status();
      if (status == TokenResult.Status.OK) {
        return 0L;
      }
      if (status == TokenResult.Status.BLOCKED) {
        return CLUSTER_BLOCK;
      }
      if (status == TokenResult.Status.SHOULD_WAIT) {
        return result.waitMs() * 1_000_000L;
      }
    }
    return Objects.requireNonNull(rule.cluster).fallbackToLocal() ? CLUSTER_LOCAL : 0L;
  }

  /** Waits out a SHOULD_WAIT of the token service; false if the wait was interrupted. */
  private boolean awaitCluster(CallEntry entry, long waitNanos) {
    try {
      engine.sleep(waitNanos);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
    entry.waited(waitNanos);
    return true;
  }

  /** Gives back what the rules that admitted a call at once took for it (see {@link #enter}). */
  private void refund(long passedAtOnce, int permits, long passedAtMs) {
    for (int i = 0; passedAtOnce != 0L && i < rules.length; i++) {
      if ((passedAtOnce & (1L << i)) != 0L) {
        rules[i].controller.refund(permits, passedAtMs);
        passedAtOnce &= ~(1L << i);
      }
    }
  }

  /** Waits out an admitting decision; false (everything released) if the wait was interrupted. */
  private boolean await(CallEntry entry, Held reserved) {
    long waitNanos = Decision.waitNanos(reserved.decision);
    int permits = entry.count();
    if (Decision.borrowed(reserved.decision)) {
      reserved.node.addWaiting(reserved.admittedAtMs, permits);
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
      release(reserved, permits);
      return false;
    }
    entry.waited(waitNanos);
    return true;
  }

  /** Gives back the reservations of a call that is refused after all. */
  private static void release(@Nullable Held held, int permits) {
    for (Held h = held; h != null; h = h.earlier) {
      if (Decision.borrowed(h.decision)) {
        h.node.cancelWaiting(h.decidedAtMs, h.admittedAtMs, permits);
      } else {
        h.rule.controller.cancel(h.decision, permits);
      }
    }
  }
}
