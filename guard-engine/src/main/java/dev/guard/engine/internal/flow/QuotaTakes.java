package dev.guard.engine.internal.flow;

import dev.guard.api.RefusedException;
import dev.guard.spi.TokenService;
import dev.guard.engine.internal.chain.Call;
import dev.guard.engine.internal.quota.QuotaBuckets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The quota takes of a rule with quotas (docs/BEHAVIOUR.md, "Quotas"), once its threshold per
 * second admitted the call: locally from its {@link CompiledFlowRule#quotas} (all or none), for a
 * cluster rule from the token service ({@link TokenService#requestQuota}) after it granted the
 * threshold. Rules without quotas pay one null check.
 *
 * <p>Invariants: a quota that refuses takes nothing, and what the rule's threshold took is given
 * back at once (the immediate pass refunded, the paced slot cancelled; a cluster grant, already
 * on the call's chain, is given back with the chain). Quotas that were taken are given back with
 * the rule's other takes: with the refund of an immediate pass (the flow slot's grant bits), with a
 * wait's reservation, or as one chain link ({@link QuotaTaken}) for a cluster rule's quotas and for
 * a rule beyond the tracked ones. What the service granted a cluster rule's quotas is also taken
 * from the rule's view of them ({@link CompiledFlowRule#clusterView}, one compare-and-set per
 * quota, given back with the grant), so budget reports tell the shared quotas without a round trip.
 */
final class QuotaTakes {

  private QuotaTakes() {}

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
    @Override
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

  /**
   * Takes the local quotas of a rule that admitted a call at once; when they refuse, refunds the
   * rule's pass.
   *
   * @return false if a quota refused (nothing is then taken)
   */
  static boolean takeAtOnce(CompiledFlowRule rule, int permits, long nowNanos, long nowMs) {
    QuotaBuckets quotas = rule.quotas;
    if (quotas == null || quotas.take(permits, nowNanos)) {
      return true;
    }
    rule.controller.refund(permits, nowMs);
    return false;
  }

  /**
   * Keeps on the call's chain the local quotas a rule beyond the tracked ones took at once (its
   * pass is not refunded, its quotas are).
   */
  static void keepUntracked(Call entry, CompiledFlowRule rule) {
    if (rule.quotas != null) {
      entry.keepGrant(new QuotaTaken(rule, null, false, (Kept) entry.grant()));
    }
  }

  /**
   * Takes the local quotas of a rule whose controller admits a call after a wait; when they
   * refuse, cancels the paced slot (a borrowed pass is not registered yet).
   *
   * @return false if a quota refused (nothing is then taken)
   */
  static boolean takeBeforeWait(CompiledFlowRule rule, long decision, int permits, long nowNanos) {
    QuotaBuckets quotas = rule.quotas;
    if (quotas == null || quotas.take(permits, nowNanos)) {
      return true;
    }
    if (!Decision.borrowed(decision)) {
      rule.controller.cancel(decision, permits);
    }
    return false;
  }

  /**
   * Takes a cluster rule's quotas for a call the token service granted the threshold: from the
   * service, or, when the service cannot decide, from the local quotas if the rule falls back
   * (else the quotas pass). What was taken joins the call's chain.
   *
   * @return null if the call may go on, else the refusal (nothing taken)
   */
  static @Nullable RefusedException takeShared(Call entry, TokenService service,
      CompiledFlowRule rule, long nowNanos) {
    int permits = entry.count();
    TokenService.Result result;
    try {
      result = service.requestQuota(rule.rule, permits);
    } catch (RuntimeException failed) {
      result = TokenService.Result.FAILED; // a failing service is a failure like any other
    }
    TokenService.Result.Status status = result.status();
    if (status == TokenService.Result.Status.OK) {
      boolean viewed = Objects.requireNonNull(rule.clusterView).take(permits, nowNanos);
      entry.keepGrant(new QuotaTaken(rule, service, viewed, (Kept) entry.grant()));
      return null;
    }
    if (status == TokenService.Result.Status.REFUSED) {
      long retryNanos = result.waitMs() > 0 ? result.waitMs() * 1_000_000L : -1L;
      return new RefusedException.Flow(rule.rule.resource(), rule.rule, () -> retryNanos);
    }
    QuotaBuckets local = Objects.requireNonNull(rule.quotas);
    if (!Objects.requireNonNull(rule.cluster).fallbackToLocal()) {
      return null;
    }
    if (!local.take(permits, nowNanos)) {
      return Objects.requireNonNull(rule.quotaRefusal);
    }
    entry.keepGrant(new QuotaTaken(rule, null, false, (Kept) entry.grant()));
    return null;
  }
}
