package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.chain.Call;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.spi.TokenService;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.quota.LimitBudget;
import dev.guard.engine.internal.quota.QuotaBuckets;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Applies a resource's flow rules in order (origin-specific before {@code default}); the first
 * refusal wins. Each rule decides in turn: a cluster rule asks the token service ({@link
 * ClusterTokens}) and, when the service does not decide and the rule falls back, is checked locally
 * like any other rule; a local decision admits at once, refuses, or admits after a wait ({@link
 * Waits}), honoured here through the engine's time source and without holding any lock, the
 * following rules then deciding at the later time; a rule with quotas takes them once its
 * threshold admitted the call ({@link QuotaTakes}).
 *
 * <p>A call that does not get through gives back everything its rules took for it, by one
 * mechanism: when a rule refuses, it has given back what it took itself, and {@link #giveBack}
 * returns what the earlier rules took; when a later slot refuses the admitted call, {@link
 * #abandon} does the same. Without this, a borrowed pass of a refused call would stay counted as a
 * pass (passes plus refusals would exceed the attempts), a paced slot would be lost to a call that
 * never ran, and a budget or a cluster grant would be spent on it.
 *
 * <p>What an admitted call was granted is kept on its entry: the grant bits hold which of the
 * first {@value #TRACKED_RULES} rules admitted it at once (low bits) and when (engine ms, high
 * bits), refunded with their local quotas ({@link TrafficShapingController#refund}); the grant
 * object is the chain ({@link Kept}) of the waits' reservations, the cluster grants and the quotas
 * kept apart. The path without waits or cluster rules allocates nothing.
 */
final class FlowSlot implements Slot {

  /** Rules whose immediate passes are refunded; beyond them (a rare rule count) they are not. */
  static final int TRACKED_RULES = 16;

  private static final long RULE_MASK = (1L << TRACKED_RULES) - 1;

  final CompiledFlowRule[] rules;
  private final SlotContext engine;
  private final Waits waits;
  private final ClusterTokens tokens;
  /** Whether a rule holds a cluster concurrency token until exit (else exit has nothing to do). */
  private final boolean holdsTokens;

  FlowSlot(CompiledFlowRule[] rules, SlotContext engine) {
    this.rules = rules;
    this.engine = engine;
    this.waits = new Waits(engine);
    this.tokens = new ClusterTokens(waits);
    this.holdsTokens = ClusterTokens.holdsTokens(rules);
  }

  @Override
  public @Nullable RefusedException enter(Call entry) {
    long passedAtOnce = 0L; // bit i: rule i admitted the call without a wait
    long passedAtMs = entry.nowMs();
    for (int i = 0; i < rules.length; i++) {
      CompiledFlowRule rule = rules[i];
      StatisticNode node = rule.select(entry, engine);
      if (node == null) {
        continue;
      }
      ClusterMode cluster = rule.cluster;
      if (cluster != null) {
        TokenService service = engine.tokenService();
        TokenService.Result answer = ClusterTokens.ask(service, rule, entry);
        if (answer != null || !cluster.fallbackToLocal()) { // else checked locally below
          RefusedException refused = tokens.admit(entry, rule, service, answer);
          if (refused != null) {
            return refuse(entry, passedAtOnce, passedAtMs, refused);
          }
          continue;
        }
      }
      long nanos = rule.precise ? engine.preciseNowNanos() : entry.nowNanos();
      long decision =
          rule.controller.decide(node, entry.count(), entry.prioritized(), nanos, entry.nowMs());
      if (decision == Decision.PASS) {
        if (!QuotaTakes.takeAtOnce(rule, entry.count(), nanos, entry.nowMs())) {
          return refuse(entry, passedAtOnce, passedAtMs, Objects.requireNonNull(rule.quotaRefusal));
        }
        if (passedAtOnce == 0L) {
          passedAtMs = entry.nowMs();
        }
        if (i < TRACKED_RULES) {
          passedAtOnce |= 1L << i;
        } else {
          QuotaTakes.keepUntracked(entry, rule);
        }
        continue;
      }
      RefusedException refused = decision == Decision.REFUSE
          ? rule.refusal : waits.admitAfterWait(entry, rule, node, decision, nanos);
      if (refused != null) {
        return refuse(entry, passedAtOnce, passedAtMs, refused);
      }
    }
    if (passedAtOnce != 0L) {
      entry.keepGrantBits(passedAtMs << TRACKED_RULES | passedAtOnce);
    }
    return null;
  }

  @Override
  public void abandon(Call entry) {
    long bits = entry.grantBits();
    giveBack(entry, bits & RULE_MASK, bits >>> TRACKED_RULES);
  }

  /** Gives back the concurrency tokens the token service granted to the ending call. */
  @Override
  public void exit(Call entry) {
    if (holdsTokens) {
      ClusterTokens.releaseAtExit((Kept) entry.grant(), entry.count());
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

  /** Refuses a call: gives back what the earlier rules took and drops the chain. */
  private RefusedException refuse(Call entry, long passedAtOnce, long passedAtMs,
      RefusedException refusal) {
    giveBack(entry, passedAtOnce, passedAtMs);
    entry.keepGrant(null);
    return refusal;
  }

  /**
   * Gives back what the rules took for a call that does not run: the chain kept on its entry,
   * newest first, then the immediate passes (with their local quotas) of the rules in {@code
   * passedAtOnce}.
   */
  private void giveBack(Call entry, long passedAtOnce, long passedAtMs) {
    int permits = entry.count();
    Kept.giveBackAll((Kept) entry.grant(), permits);
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
}
