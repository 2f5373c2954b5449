package dev.guard.engine.internal.flow;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.internal.chain.Call;
import dev.guard.spi.TokenService;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A cluster rule's tokens from the engine's token service (docs/BEHAVIOUR.md, "Cluster flow
 * control"): a QPS rule asks for permits (OK passes, SHOULD_WAIT waits through the engine's time
 * source and passes), a concurrency rule for a concurrency token (OK passes); REFUSED refuses, and
 * anything else (no service, a failure, an exception) leaves the rule to check the call locally
 * like any other rule or to pass it, as the rule's cluster mode says.
 *
 * <p>Invariants: a grant joins the call's chain ({@link Granted}, one small record per grant) as
 * soon as it is granted, before the rule's quotas are taken and before its wait, so that a call
 * refused afterwards gives its permits back ({@link TokenService#giveBack}) or its concurrency
 * token back ({@link TokenService#releaseConcurrency}) through that chain; an admitted call gives
 * its concurrency token back at exit ({@link #releaseAtExit}), and its permits never. A service
 * that throws never fails the call.
 */
final class ClusterTokens {

  private final Waits waits;

  ClusterTokens(Waits waits) {
    this.waits = waits;
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
    @Override
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

  /** Whether one of the rules holds a cluster concurrency token until the call's exit. */
  static boolean holdsTokens(CompiledFlowRule[] rules) {
    boolean tokens = false;
    for (CompiledFlowRule rule : rules) {
      tokens |= rule.cluster != null && rule.rule.metric() == FlowRule.Metric.CONCURRENCY;
    }
    return tokens;
  }

  /**
   * Asks the token service about a cluster rule: {@link TokenService.Result#REFUSED} to refuse,
   * a grant (OK, or SHOULD_WAIT with its wait), or null when the service is absent, fails, throws
   * or will not decide, so that the rule falls back.
   */
  static TokenService.@Nullable Result ask(@Nullable TokenService service, CompiledFlowRule rule,
      Call entry) {
    if (service == null) {
      return null;
    }
    TokenService.Result result;
    try {
      result = rule.rule.metric() == FlowRule.Metric.CONCURRENCY
          ? service.acquireConcurrency(rule.rule, entry.count())
          : service.requestToken(rule.rule, entry.count(), entry.prioritized());
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
   * Admits or refuses a call as the token service's answer says: with no answer the call passes
   * the rule; a grant joins the call's chain, then the rule's quotas are taken and a SHOULD_WAIT is
   * waited out.
   *
   * @param answer what {@link #ask} returned
   * @return null if the call may go on, else the refusal; what the chain holds is for the caller
   *     to give back
   */
  @Nullable RefusedException admit(Call entry, CompiledFlowRule rule,
      @Nullable TokenService service, TokenService.@Nullable Result answer) {
    if (answer == null) {
      return null; // the service did not decide and the rule does not fall back: it passes
    }
    if (answer == TokenService.Result.REFUSED) {
      return rule.refusal;
    }
    TokenService granting = Objects.requireNonNull(service);
    entry.keepGrant(new Granted(rule, granting, answer, (Kept) entry.grant()));
    if (rule.quotas != null) {
      RefusedException refused = QuotaTakes.takeShared(entry, granting, rule, entry.nowNanos());
      if (refused != null) {
        return refused;
      }
    }
    if (answer.waitMs() > 0 && !waits.sleep(entry, answer.waitMs() * 1_000_000L)) {
      return rule.refusal;
    }
    return null;
  }

  /** Gives back the concurrency tokens the token service granted to an ending call. */
  static void releaseAtExit(@Nullable Kept chain, int permits) {
    for (Kept k = chain; k != null; k = k.earlier) {
      if (k instanceof Granted granted && granted.concurrency()) {
        granted.giveBack(permits);
      }
    }
  }
}
