package dev.guard.engine;

import dev.guard.api.rule.FlowRule;
import java.util.OptionalInt;

/**
 * Decides cluster-mode flow rules ({@link FlowRule#cluster()} not null) for several instances at
 * once, from windows shared per flow id. The engine takes one on {@link
 * GuardEngine.Builder#tokenService}; every call of a cluster rule asks it.
 *
 * <p>How the engine acts on an answer: {@link TokenResult.Status#OK} passes, {@link
 * TokenResult.Status#SHOULD_WAIT} waits through the engine's time source and passes, {@link
 * TokenResult.Status#BLOCKED} refuses, and anything else (including an exception thrown by the
 * service) falls back as the rule's {@link dev.guard.api.rule.ClusterMode#fallbackToLocal()} says:
 * check the rule against this instance's statistics, or pass.
 *
 * <p>Implementations must be thread-safe and answer quickly: a call waits for the answer.
 * docs/BEHAVIOUR.md ("Cluster flow control") states the decision formulas.
 */
public interface TokenService {

  /**
   * Asks for {@code permits} passes of a cluster QPS rule.
   *
   * @param rule the rule; its {@link FlowRule#cluster()} is not null, its {@code count} is the
   *     threshold per second (of the cluster or of each instance)
   * @param permits how many passes; {@code > 0}
   * @param prioritized whether the call may take passes from the next bucket and wait for them
   * @return the answer; never null
   */
  TokenResult requestToken(FlowRule rule, int permits, boolean prioritized);

  /**
   * Asks for a concurrency token of a cluster rule: granted while fewer than the threshold are
   * held. A token not given back expires after the rule's {@link
   * dev.guard.api.rule.ClusterMode#leaseTime()}. The default answers {@link TokenResult#FAILED}.
   *
   * @param rule the rule with its cluster mode
   * @param permits how many concurrent slots; {@code > 0}
   * @return OK with a {@link TokenResult#tokenId()}, BLOCKED or a failure
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
