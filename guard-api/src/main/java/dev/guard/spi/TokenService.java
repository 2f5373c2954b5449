package dev.guard.spi;

import dev.guard.api.rule.FlowRule;
import java.util.OptionalInt;

/**
 * Decides cluster-mode flow rules ({@link FlowRule#cluster()} not null) for several instances at
 * once: QPS rules from windows shared per flow id, concurrency rules from concurrency tokens
 * shared per flow id. The engine takes one on {@code GuardEngine.Builder#tokenService}; every call
 * of a cluster rule asks it, and a call that a later rule or slot refuses gives its grant back
 * ({@link #giveBack}, {@link #releaseConcurrency}).
 *
 * <p>How the engine acts on an answer: {@link TokenResult.Status#OK} passes, {@link
 * TokenResult.Status#SHOULD_WAIT} waits through the engine's time source and passes, {@link
 * TokenResult.Status#REFUSED} refuses, and anything else (including an exception thrown by the
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
   * @param rule the rule; its {@link FlowRule#cluster()} is not null, its {@code count} is the
   *     threshold per second (of the cluster or of each instance)
   * @param permits how many passes; {@code > 0}
   * @param prioritized whether the call may take passes from the next bucket and wait for them
   * @return the answer; never null. A granted answer ({@code OK}, {@code SHOULD_WAIT}) may carry
   *     a {@link TokenResult#tokenId()} that {@link #giveBack} uses to find where it was counted
   */
  TokenResult requestToken(FlowRule rule, int permits, boolean prioritized);

  /**
   * Gives back the permits of a QPS grant whose call never ran (a later rule or slot refused it),
   * so the shared window does not count them. Exact where the service can tell where the grant
   * was counted (its {@link TokenResult#tokenId()}): the permits leave that bucket, as if never
   * granted; a grant whose bucket has left the window is not counted any more and nothing
   * changes. A service may return the permits to a local share instead (leased mode). Never
   * throws; failures are ignored (the permits then stay counted). The default does nothing.
   *
   * @param rule the rule the grant was for
   * @param permits the permits granted; {@code > 0}
   * @param grant the granted answer of {@link #requestToken}
   */
  default void giveBack(FlowRule rule, int permits, TokenResult grant) {}

  /**
   * Asks for a concurrency token of a cluster concurrency rule: granted while the flow id's held
   * permits plus {@code permits} stay within the threshold. A token not given back (its holder
   * died) expires after the rule's {@link dev.guard.api.rule.ClusterMode#leaseTime()}. The
   * engine asks on entry and gives the token back on exit. The default answers {@link
   * TokenResult#FAILED} (the rule falls back).
   *
   * @param rule the rule with its cluster mode
   * @param permits how many concurrent slots; {@code > 0}
   * @return OK with a {@link TokenResult#tokenId()}, REFUSED or a failure
   */
  default TokenResult acquireConcurrency(FlowRule rule, int permits) {
    return TokenResult.FAILED;
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
}
