package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.chain.Call;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.quota.LimitBudget;
import dev.guard.engine.internal.quota.QuotaBuckets;
import dev.guard.engine.internal.stat.BorrowPlacement;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.List;
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
 * refused), when a later flow rule refuses it, and when a later slot refuses it ({@link
 * #abandon}). Without this, a borrowed pass of a refused call would stay counted as a pass (passes
 * plus refusals would exceed the attempts), a paced slot would be lost to a call that never ran, and
 * a budget would be spent on it.
 *
 * <p>What an admitted call was granted is kept on its entry: the grant bits hold which of the
 * first {@value #TRACKED_RULES} rules admitted it at once (low bits) and when (engine ms, high
 * bits); the grant object is the chain of reservations of rules that made it wait. The path
 * without waits allocates nothing; a waiting call allocates one small record per wait.
 *
 * <p>A cluster rule asks the engine's token service first (docs/BEHAVIOUR.md, "Cluster flow
 * control"): a QPS rule for permits (OK passes, SHOULD_WAIT waits through the engine's time source
 * and passes), a concurrency rule for a concurrency token (OK passes); REFUSED refuses, and
 * anything else (no service, a failure, an exception) either checks the rule locally like any
 * other rule or passes, as the rule's cluster mode says. What the service granted is kept in the
 * same chain as the waits' reservations ({@link Granted}, one small record per cluster grant):
 * a call refused later gives its permits back ({@link TokenService#giveBack}) and its concurrency
 * token back ({@link TokenService#releaseConcurrency}); an admitted call gives its concurrency
 * token back at exit.
 *
 * <p>A rule with quotas (docs/BEHAVIOUR.md, "Quotas") takes from them once its threshold per
 * second has admitted the call: locally from its {@link CompiledFlowRule#quotas} (all or none),
 * for a cluster rule from the token service ({@link TokenService#requestQuota}) after it granted
 * the threshold. When a quota refuses, what the rule's threshold took is given back at once (the
 * pass refunded, a paced slot cancelled, a cluster grant given back) and so is everything the
 * earlier rules took, as for any refusal. The quotas a call took are given back with its rule's
 * other takes: with the refund of an immediate pass (the grant bits), with a wait's reservation,
 * and in the chain as one small record ({@link QuotaTaken}) for a cluster rule's quotas and for a
 * rule beyond the tracked ones. Rules without quotas pay one null check. What the service granted
 * a cluster rule's quotas is also taken from the rule's view of them ({@link
 * CompiledFlowRule#clusterView}, one compare-and-set per quota, given back with the grant), so
 * budget reports can tell the shared quotas without a round trip.
 */
final class FlowSlot implements Slot {

  /** Rules whose immediate passes are refunded; beyond them (a rare rule count) they are not. */
  static final int TRACKED_RULES = 16;

  private static final long RULE_MASK = (1L << TRACKED_RULES) - 1;

  final CompiledFlowRule[] rules;
  private final SlotContext engine;
  /** Whether a rule holds a cluster concurrency token until exit (else exit has nothing to do). */
  private final boolean holdsTokens;

  FlowSlot(CompiledFlowRule[] rules, SlotContext engine) {
    this.rules = rules;
    this.engine = engine;
    boolean tokens = false;
    for (CompiledFlowRule rule : rules) {
      tokens |= rule.cluster != null && rule.rule.metric() == FlowRule.Metric.CONCURRENCY;
    }
    this.holdsTokens = tokens;
  }

  /** Something a rule reserved for an admitted call; linked to the earlier rules' ones. */
  private abstract static class Kept {
    final CompiledFlowRule rule;
    final @Nullable Kept earlier;

    Kept(CompiledFlowRule rule, @Nullable Kept earlier) {
      this.rule = rule;
      this.earlier = earlier;
    }
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
  }

  /**
   * Quotas a rule took for a call: from the token service (and then from the rule's view of them,
   * if it had room), or (service null) local ones.
   */
  private static final class QuotaTaken extends Kept {
    final @Nullable TokenService service;
    final boolean viewed;

    QuotaTaken(CompiledFlowRule rule, @Nullable TokenService service, boolean viewed,
        @Nullable Kept earlier) {
      super(rule, earlier);
      this.service = service;
      this.viewed = viewed;
    }

    /** Gives the quotas back; a service that throws is ignored (the calls stay counted). */
    void giveBack(int permits) {
      if (service == null) {
        Objects.requireNonNull(rule.quotas).giveBack(permits);
        return;
      }
      if (viewed) {
        Objects.requireNonNull(rule.clusterView).giveBack(permits);
      }
      try {
        service.giveBackQuota(rule.rule, permits);
      } catch (RuntimeException ignored) {
        // a failing service must not fail the call
      }
    }
  }

  /** What the token service granted for a cluster rule: permits, or a concurrency token. */
  private static final class Granted extends Kept {
    final TokenService service;
    final TokenService.Result grant;

    Granted(CompiledFlowRule rule, TokenService service, TokenService.Result grant,
        @Nullable Kept earlier) {
      super(rule, earlier);
      this.service = service;
      this.grant = grant;
    }

    boolean concurrency() {
      return rule.rule.metric() == FlowRule.Metric.CONCURRENCY;
    }

    /** Gives the grant back; a service that throws is ignored (the grant then expires). */
    void giveBack(int permits) {
      try {
        if (concurrency()) {
          service.releaseConcurrency(grant.tokenId());
        } else {
          service.giveBack(rule.rule, permits, grant);
        }
      } catch (RuntimeException ignored) {
        // a failing service must not fail the call; its grant expires with its window or lease
      }
    }
  }

  @Override
  public @Nullable RefusedException enter(Call entry) {
    Kept held = null;
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
        TokenService service = engine.tokenService();
        TokenService.Result result = askCluster(service, rule, permits, entry.prioritized());
        if (result == TokenService.Result.REFUSED) {
          release(held, permits);
          refund(passedAtOnce, permits, passedAtMs);
          return rule.refusal;
        }
        if (result != null) {
          held = new Granted(rule, Objects.requireNonNull(service), result, held);
          if (rule.quotas != null) {
            Object quota = askQuotas(service, rule, permits, entry.nowNanos(), held);
            if (quota instanceof RefusedException refused) {
              release(held, permits);
              refund(passedAtOnce, permits, passedAtMs);
              return refused;
            }
            held = (Kept) quota;
          }
          if (result.waitMs() > 0 && !awaitCluster(entry, result.waitMs() * 1_000_000L)) {
            release(held, permits);
            refund(passedAtOnce, permits, passedAtMs);
            return rule.refusal;
          }
          continue;
        }
        if (!Objects.requireNonNull(rule.cluster).fallbackToLocal()) {
          continue;
        }
        // fallback: the rule is checked against this instance's statistics below
      }
      long nanos = rule.precise ? engine.preciseNowNanos() : entry.nowNanos();
      long decision =
          rule.controller.decide(node, permits, entry.prioritized(), nanos, entry.nowMs());
      if (decision == Decision.PASS) {
        if (rule.quotas != null) {
          if (!rule.quotas.take(permits, nanos)) {
            rule.controller.refund(permits, entry.nowMs());
            release(held, permits);
            refund(passedAtOnce, permits, passedAtMs);
            return Objects.requireNonNull(rule.quotaRefusal);
          }
          if (i >= TRACKED_RULES) {
            held = new QuotaTaken(rule, null, false, held);
          }
        }
        if (passedAtOnce == 0L) {
          passedAtMs = entry.nowMs();
        }
        if (i < TRACKED_RULES) {
          passedAtOnce |= 1L << i;
        }
        continue;
      }
      if (decision != Decision.REFUSE) {
        if (rule.quotas != null && !rule.quotas.take(permits, nanos)) {
          if (!Decision.borrowed(decision)) {
            rule.controller.cancel(decision, permits);
          }
          release(held, permits);
          refund(passedAtOnce, permits, passedAtMs);
          return Objects.requireNonNull(rule.quotaRefusal);
        }
        Held waiting = new Held(rule, node, decision, nanos, entry.nowMs(), held);
        held = waiting;
        if (await(entry, waiting)) {
          continue;
        }
      } else {
        release(held, permits);
      }
      refund(passedAtOnce, permits, passedAtMs);
      return rule.refusal;
    }
    if (passedAtOnce != 0L) {
      entry.keepGrantBits(passedAtMs << TRACKED_RULES | passedAtOnce);
    }
    entry.keepGrant(held);
    return null;
  }

  @Override
  public void abandon(Call entry) {
    long bits = entry.grantBits();
    release((Kept) entry.grant(), entry.count());
    refund(bits & RULE_MASK, entry.count(), bits >>> TRACKED_RULES);
  }

  /** Gives back the concurrency tokens the token service granted to the ending call. */
  @Override
  public void exit(Call entry) {
    if (!holdsTokens) {
      return;
    }
    for (Kept k = (Kept) entry.grant(); k != null; k = k.earlier) {
      if (k instanceof Granted granted && granted.concurrency()) {
        granted.giveBack(entry.count());
      }
    }
  }

  /**
   * Adds the budgets of one rule (see {@link FlowSlotKind#budget}), read at the engine's precise
   * time: its rate per second, then each of its quotas; for a cluster rule only its quotas, from
   * this instance's view of them (its rate is the token service's window).
   */
  void budgetsOf(CompiledFlowRule compiled, ClusterNode resource, @Nullable DefaultNode contextNode,
      String origin, List<LimitBudget> into) {
    long nanos = engine.preciseNowNanos();
    if (compiled.cluster == null) {
      StatisticNode node = compiled.existingNode(resource, contextNode, origin, engine);
      long remaining = compiled.controller.remaining(node, nanos, nanos / 1_000_000L);
      if (remaining >= 0) {
        long reset = compiled.controller.resetNanos(nanos, engine.secondWindow().bucketLengthMs());
        into.add(LimitBudget.ofRate(compiled.rule, remaining, reset));
      }
    }
    QuotaBuckets quotas = compiled.cluster == null ? compiled.quotas : compiled.clusterView;
    for (int q = 0; quotas != null && q < compiled.rule.quotas().size(); q++) {
      into.add(LimitBudget.ofQuota(compiled.rule, compiled.rule.quotas().get(q), q, quotas, nanos));
    }
  }

  /**
   * Asks the engine's token service about a cluster rule: {@link TokenService.Result#REFUSED} to refuse,
   * a grant (OK, or SHOULD_WAIT with its wait), or null when the service is absent, fails, throws
   * or will not decide, so that the rule falls back.
   */
  private static TokenService.@Nullable Result askCluster(@Nullable TokenService service,
      CompiledFlowRule rule, int permits, boolean prioritized) {
    if (service == null) {
      return null;
    }
    TokenService.Result result;
    try {
      result = rule.rule.metric() == FlowRule.Metric.CONCURRENCY
          ? service.acquireConcurrency(rule.rule, permits)
          : service.requestToken(rule.rule, permits, prioritized);
    } catch (RuntimeException failed) {
      return null; // a failing service is a failure like any other: fall back
    }
    TokenService.Result.Status status = result.status();
    if (status == TokenService.Result.Status.REFUSED) {
      return TokenService.Result.REFUSED;
    }
    return status == TokenService.Result.Status.OK || status == TokenService.Result.Status.SHOULD_WAIT
        ? result : null;
  }

  /**
   * Takes a cluster rule's quotas for a call its threshold admitted: from the token service, or,
   * when the service cannot decide, from the local quotas if the rule falls back (else the
   * quotas pass). Returns the chain with what was taken, or the refusal (nothing taken).
   */
  private static Object askQuotas(TokenService service, CompiledFlowRule rule, int permits,
      long nowNanos, Kept held) {
    TokenService.Result result;
    try {
      result = service.requestQuota(rule.rule, permits);
    } catch (RuntimeException failed) {
      result = TokenService.Result.FAILED; // a failing service is a failure like any other
    }
    TokenService.Result.Status status = result.status();
    if (status == TokenService.Result.Status.OK) {
      QuotaBuckets view = Objects.requireNonNull(rule.clusterView);
      return new QuotaTaken(rule, service, view.take(permits, nowNanos), held);
    }
    if (status == TokenService.Result.Status.REFUSED) {
      long retryNanos = result.waitMs() > 0 ? result.waitMs() * 1_000_000L : -1L;
      return new RefusedException.Flow(rule.rule.resource(), rule.rule, () -> retryNanos);
    }
    QuotaBuckets local = Objects.requireNonNull(rule.quotas);
    if (!Objects.requireNonNull(rule.cluster).fallbackToLocal()) {
      return held;
    }
    return local.take(permits, nowNanos)
        ? new QuotaTaken(rule, null, false, held) : Objects.requireNonNull(rule.quotaRefusal);
  }

  /** Waits out a SHOULD_WAIT of the token service; false if the wait was interrupted. */
  private boolean awaitCluster(Call entry, long waitNanos) {
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
        QuotaBuckets quotas = rules[i].quotas;
        if (quotas != null) {
          quotas.giveBack(permits);
        }
        passedAtOnce &= ~(1L << i);
      }
    }
  }

  /** Waits out an admitting decision; false (everything released) if the wait was interrupted. */
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
      release(reserved, permits);
      return false;
    }
    entry.waited(waitNanos);
    if (Decision.borrowed(reserved.decision)) {
      reserved.node.startBucket(reserved.admittedAtMs); // its borrowed pass arrives now
    }
    return true;
  }

  /** Gives back the reservations and cluster grants of a call that is refused after all. */
  private static void release(@Nullable Kept held, int permits) {
    for (Kept k = held; k != null; k = k.earlier) {
      if (k instanceof Granted granted) {
        granted.giveBack(permits);
        continue;
      }
      if (k instanceof QuotaTaken taken) {
        taken.giveBack(permits);
        continue;
      }
      Held h = (Held) k;
      if (Decision.borrowed(h.decision)) {
        h.node.cancelWaiting(h.decidedAtMs, h.admittedAtMs, permits, h.placement);
      } else {
        h.rule.controller.cancel(h.decision, permits);
      }
      QuotaBuckets quotas = h.rule.quotas;
      if (quotas != null) {
        quotas.giveBack(permits); // a waiting rule took its quotas before the wait
      }
    }
  }
}
