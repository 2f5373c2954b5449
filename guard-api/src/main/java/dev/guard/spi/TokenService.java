package dev.guard.spi;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import java.util.OptionalInt;
import java.util.Objects;

/**
 * Decides cluster-mode flow rules ({@link FlowRule#cluster()} not null) for several instances at
 * once: QPS rules from windows shared per flow id, concurrency rules from concurrency tokens
 * shared per flow id. The engine takes one on {@code GuardEngine.Builder#tokenService}; every call
 * of a cluster rule asks it, and a call that a later rule or slot refuses gives its grant back
 * ({@link #giveBack}, {@link #releaseConcurrency}).
 *
 * <p>How the engine acts on an answer: {@link TokenService.Result.Status#OK} passes, {@link
 * TokenService.Result.Status#SHOULD_WAIT} waits through the engine's time source and passes, {@link
 * TokenService.Result.Status#REFUSED} refuses, and anything else (including an exception thrown by the
 * service) falls back as the rule's {@link dev.guard.api.rule.ClusterMode#fallbackToLocal()} says:
 * check the rule against this instance's statistics, or pass.
 *
 * <p>Implementations must be thread-safe and answer quickly: a call waits for the answer.
 * docs/BEHAVIOUR.md ("Cluster flow control") states the decision formulas, including what holds
 * while instances disagree about a flow id's rule ("the rolling-deploy rule"). A new backend
 * proves that it makes the same decisions by running guard-testkit's {@code
 * TokenServiceContract}.
 */
public interface TokenService {

  /**
   * Asks for {@code permits} passes of a cluster QPS rule.
   *
   * @param rule the rule; its {@link FlowRule#cluster()} is not null, its {@link
   *     FlowRule#threshold()} is the threshold per second (of the cluster or of each instance)
   * @param permits how many passes; {@code > 0}
   * @param prioritized whether the call may take passes from the next bucket and wait for them
   * @return the answer; never null. A granted answer ({@code OK}, {@code SHOULD_WAIT}) may carry
   *     a {@link TokenService.Result#tokenId()} that {@link #giveBack} uses to find where it was counted
   */
  TokenService.Result requestToken(FlowRule rule, int permits, boolean prioritized);

  /**
   * Gives back the permits of a QPS grant whose call never ran (a later rule or slot refused it),
   * so the shared window does not count them. Exact where the service can tell where the grant
   * was counted (its {@link TokenService.Result#tokenId()}): the permits leave that bucket, as if never
   * granted; a grant whose bucket has left the window is not counted any more and nothing
   * changes. A service may return the permits to a local share instead (leased mode). Never
   * throws; failures are ignored (the permits then stay counted). The default does nothing.
   *
   * @param rule the rule the grant was for
   * @param permits the permits granted; {@code > 0}
   * @param grant the granted answer of {@link #requestToken}
   */
  default void giveBack(FlowRule rule, int permits, TokenService.Result grant) {}

  /**
   * Asks for a concurrency token of a cluster concurrency rule: granted while the flow id's held
   * permits plus {@code permits} stay within the threshold. A token not given back (its holder
   * died) expires after the rule's {@link dev.guard.api.rule.ClusterMode#leaseTime()}. The
   * engine asks on entry and gives the token back on exit. The default answers {@link
   * TokenService.Result#FAILED} (the rule falls back).
   *
   * @param rule the rule with its cluster mode
   * @param permits how many concurrent slots; {@code > 0}
   * @return OK with a {@link TokenService.Result#tokenId()}, REFUSED or a failure
   */
  default TokenService.Result acquireConcurrency(FlowRule rule, int permits) {
    return TokenService.Result.FAILED;
  }

  /**
   * Gives back a concurrency token; unknown or expired ids are ignored.
   *
   * @param tokenId the id from {@link #acquireConcurrency}
   * @return true if the token was held and is now released
   */
  default boolean releaseConcurrency(long tokenId) {
    return false;
  }

  /**
   * Asks for {@code permits} tokens of one value of a cluster per-value rule ({@link
   * PerValueRule#cluster()} not null): the value's buckets (the rule's threshold per period with
   * its burst, the value's exception threshold, every quota) are shared by every instance that
   * uses the rule's flow id, and decided as the engine decides them locally (docs/BEHAVIOUR.md,
   * "Cluster per-value limits"): granted only when every bucket of the value holds the permits,
   * taking them from all of them; a refused request takes from none. The service remembers at most
   * {@link PerValueRule#maxValues()} values per flow id, and forgets idle ones.
   *
   * <p>The default answers {@link TokenService.Result#FAILED}, so a service that does not share
   * per-value rules lets them fall back to the local limit.
   *
   * @param rule the rule; its cluster mode is not null
   * @param value the value (the argument, or one element of a collection argument); a service
   *     identifies it by {@link String#valueOf(Object)}
   * @param permits how many tokens; {@code > 0}
   * @return {@code OK} (granted), {@code REFUSED} (with {@link TokenService.Result#waitMs()}: when
   *     the value's buckets hold the permits again, 0 when unknown or never) or a failure; never
   *     null
   */
  default TokenService.Result requestValueToken(PerValueRule rule, Object value, int permits) {
    return TokenService.Result.FAILED;
  }

  /**
   * Gives back the tokens of a value whose call never ran (a later rule or slot refused it): they
   * return to every bucket of the value, up to its size. Never throws; failures are ignored. The
   * default does nothing.
   *
   * @param rule the rule the grant was for
   * @param value the value as granted
   * @param permits the tokens granted; {@code > 0}
   */
  default void giveBackValue(PerValueRule rule, Object value, int permits) {}

  /**
   * Asks for {@code permits} calls of the quotas of a cluster flow rule ({@link FlowRule#quotas()}
   * not empty, {@link FlowRule#cluster()} not null), after {@link #requestToken} granted its
   * threshold per second: the quotas are shared by every instance that uses the rule's flow id,
   * each counted in fixed windows as the engine counts them locally (docs/BEHAVIOUR.md,
   * "Quotas"), like the quotas of one value of a per-value rule. Granted only when every quota
   * holds the permits, taking them from all of them; a refused request takes from none.
   *
   * <p>The default answers {@link TokenService.Result#FAILED}, so a service that does not share
   * quotas lets them fall back to the local limit.
   *
   * @param rule the rule; its cluster mode is not null and it has quotas
   * @param permits how many calls; {@code > 0}
   * @return {@code OK} (granted, with the calls left in the first quota's window), {@code
   *     REFUSED} (with {@link TokenService.Result#waitMs()}: when every quota holds the permits
   *     again, 0 when never) or a failure; never null
   */
  default TokenService.Result requestQuota(FlowRule rule, int permits) {
    return TokenService.Result.FAILED;
  }

  /**
   * Gives back the calls {@link #requestQuota} granted to a call that never ran (a later rule or
   * slot refused it): they return to every quota of the rule, up to its limit. Never throws;
   * failures are ignored. The default does nothing.
   *
   * @param rule the rule the grant was for
   * @param permits the calls granted; {@code > 0}
   */
  default void giveBackQuota(FlowRule rule, int permits) {}

  /**
   * Returns how many instances share the limits of a flow id now, when the service can tell: for
   * a shared backend, the instances that asked about the flow id within their expiry time. For
   * dashboards and operators; never called on the call path. The default does not know.
   *
   * @param flowId the flow id
   * @return the instance count, or empty when unknown or the backend cannot be asked
   */
  default OptionalInt instances(String flowId) {
    return OptionalInt.empty();
  }

  /**
   * Registers a listener told when the service's backend becomes unavailable and available again:
   * once per change, never per call. An engine built with this service registers one that forwards
   * to its {@link EngineListener#onTokenServiceAvailability}. The default ignores the listener (a
   * service without a backend never changes).
   *
   * @param listener the listener; called on the thread that saw the change, must be fast and must
   *     not throw
   */
  default void addAvailabilityListener(AvailabilityListener listener) {}

  /**
   * Removes a listener added with {@link #addAvailabilityListener} (compared by identity); an
   * unknown listener is ignored. {@code GuardEngine#close()} removes the one its engine added.
   * The default does nothing.
   *
   * @param listener the listener
   */
  default void removeAvailabilityListener(AvailabilityListener listener) {}

  /** Hears a token service's backend become unavailable or available again. */
  @FunctionalInterface
  interface AvailabilityListener {

    /**
     * Called once per change.
     *
     * @param available false when the service stopped reaching its backend (its callers fall
     *     back), true when it reaches it again
     */
    void availabilityChanged(boolean available);
  }

  /**
   * A token service's answer to one request.
   *
   * <p>The constants {@link #OK}, {@link #REFUSED}, {@link #FAILED} and {@link #TOO_MANY_REQUESTS}
   * let a service answer without allocating; {@link #ok(long)} and {@link #shouldWait(long)} carry
   * numbers.
   *
   * @param status the decision
   * @param remaining for {@link Status#OK}: how many more permits the window had left after this
   *     request (rounded down; {@code -1} when the service does not say); otherwise 0
   * @param waitMs for {@link Status#SHOULD_WAIT}: how long the caller waits before it passes; for
   *     {@link Status#REFUSED}: how long until a retry could pass (0: not said); otherwise 0
   * @param tokenId for a granted concurrency token: the id that gives it back; for a granted QPS
   *     request ({@code OK}, {@code SHOULD_WAIT}): the service's own id of the grant, which {@link
   *     TokenService#giveBack} reads (0: none); otherwise 0
   */
  record Result(Status status, long remaining, long waitMs, long tokenId) {

    /** What a token service decided. */
    public enum Status {
      /** Pass now. */
      OK,
      /** Pass after waiting {@link Result#waitMs()}: the permits were taken from the future. */
      SHOULD_WAIT,
      /** Refuse the call: the shared threshold is reached. */
      REFUSED,
      /** The service refused to decide: its own request limit is reached (the caller falls back). */
      TOO_MANY_REQUESTS,
      /** The service could not decide: unreachable, slow, misconfigured (the caller falls back). */
      FAILED
    }

    /** Pass now, remaining unknown. */
    public static final Result OK = new Result(Status.OK, -1, 0, 0);

    /** Refuse the call. */
    public static final Result REFUSED = new Result(Status.REFUSED, 0, 0, 0);

    /** The service could not decide. */
    public static final Result FAILED = new Result(Status.FAILED, 0, 0, 0);

    /** The service's request limit is reached. */
    public static final Result TOO_MANY_REQUESTS =
        new Result(Status.TOO_MANY_REQUESTS, 0, 0, 0);

    /**
     * Validates the fields.
     *
     * @param status the decision
     * @param remaining permits left after an OK
     * @param waitMs the wait of a SHOULD_WAIT
     * @param tokenId the id of a granted concurrency token
     * @throws IllegalArgumentException if {@code waitMs} is negative, or set for another status
     *     than SHOULD_WAIT or REFUSED
     */
    public Result {
      Objects.requireNonNull(status, "status");
      if (waitMs < 0
          || (waitMs > 0 && status != Status.SHOULD_WAIT && status != Status.REFUSED)) {
        throw new IllegalArgumentException("waitMs must be >= 0 and only set for SHOULD_WAIT or"
            + " REFUSED, was " + waitMs + " for " + status);
      }
    }

    /**
     * Refuse the call, saying when a retry could pass.
     *
     * @param retryAfterMs how long until the permits could be granted, in ms; {@code >= 0} (0:
     *     not said)
     * @return the answer ({@link #REFUSED} for 0)
     */
    public static Result refused(long retryAfterMs) {
      return retryAfterMs == 0 ? REFUSED : new Result(Status.REFUSED, 0, retryAfterMs, 0);
    }

    /**
     * Pass now, with the permits left in the window.
     *
     * @param remaining permits left after this request
     * @return the answer
     */
    public static Result ok(long remaining) {
      return new Result(Status.OK, remaining, 0, 0);
    }

    /**
     * Pass after a wait.
     *
     * @param waitMs how long to wait, in ms; {@code >= 0}
     * @return the answer
     */
    public static Result shouldWait(long waitMs) {
      return new Result(Status.SHOULD_WAIT, 0, waitMs, 0);
    }

    /**
     * A granted QPS request that the service can take back.
     *
     * @param remaining permits left after this request ({@code -1}: not said)
     * @param grantId the service's id of the grant, for {@link TokenService#giveBack}
     * @return the answer
     */
    public static Result granted(long remaining, long grantId) {
      return new Result(Status.OK, remaining, 0, grantId);
    }

    /**
     * A granted prioritized request that passes after a wait and that the service can take back.
     *
     * @param waitMs how long to wait, in ms; {@code >= 0}
     * @param grantId the service's id of the grant, for {@link TokenService#giveBack}
     * @return the answer
     */
    public static Result grantedAfter(long waitMs, long grantId) {
      return new Result(Status.SHOULD_WAIT, 0, waitMs, grantId);
    }

    /**
     * A granted concurrency token.
     *
     * @param tokenId the id that gives it back
     * @return the answer
     */
    public static Result token(long tokenId) {
      return new Result(Status.OK, -1, 0, tokenId);
    }
  }
}
