package dev.guard.spi;

import dev.guard.api.rule.RuleRevision;
import dev.guard.api.event.BreakerTransition;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleError;
import java.util.List;

/**
 * Receives notable engine events. Listeners are registered on the {@code GuardEngine.Builder} and
 * called synchronously on the thread that caused the event, so they must be fast and must not
 * throw (an exception from a listener is caught and ignored).
 *
 * <pre>{@code
 * GuardEngine engine = GuardEngine.builder()
 *     .listener(new EngineListener() {
 *       public void onCapExceeded(Cap cap, String name) {
 *         log.warn("guard cap {} full, {} not tracked", cap, name);
 *       }
 *     })
 *     .build();
 * }</pre>
 */
public interface EngineListener {

  /**
   * Called when the rules of a resource were replaced by different ones.
   *
   * @param resource the resource
   * @param previous the rules before (empty if none)
   * @param current the rules now in force
   */
  default void onRulesReplaced(String resource, List<Rule> previous, List<Rule> current) {}

  /**
   * Called when a circuit breaker changes state, on the thread that made the change, while the
   * breaker's transitions are held still: the events of one breaker arrive in the order of its
   * transitions. Do not block here.
   *
   * @param transition the change
   */
  default void onBreakerStateChanged(BreakerTransition transition) {}

  /**
   * Called when a whole rule set took effect ({@code GuardEngine#apply}, a {@link
   * RuleSource}'s delivery of its part, or {@code GuardEngine#rollBack}), after {@link #onRulesReplaced} was called for
   * each resource it changed.
   *
   * @param revision the applied set, its source and what it changed ({@link RuleRevision#changes()})
   */
  default void onRulesApplied(RuleRevision revision) {}

  /**
   * Called when a rule set was refused: the rules in force did not change.
   *
   * @param source who offered the set (a rule source's name, or the caller's label)
   * @param errors every reason, each with where the problem is
   */
  default void onRulesInvalid(String source, List<RuleError> errors) {}

  /**
   * Called each time a bounded collection is full and the engine applies its overflow policy.
   *
   * @param cap the full collection
   * @param name the resource, context or origin name that did not fit
   */
  default void onCapExceeded(Cap cap, String name) {}

  /**
   * Called once for each resource and whole second in which it refused calls, when the engine
   * records that second into its metrics history ({@code GuardEngine#recordMetrics()}, or a read of
   * the history or totals): the refusal log. Runs on the recording thread, never on the call path.
   *
   * @param entry the refusals of one resource in one second, by kind and by origin
   */
  default void onRefusals(RefusalLogEntry entry) {}

  /**
   * Called when guard itself failed: a protection threw while deciding a call, while seeing it
   * end, or while its rules were compiled. Such a failure never reaches the caller (fail-open): a
   * call being decided is admitted and counted as passed, so statistics stay balanced; an exit
   * completes; a chain compiled on the call path (a resource's first use, a guard's first call)
   * is left without the failing protection; a rule change asked for explicitly ({@code
   * GuardEngine#apply}, a source's delivery) is refused with an {@link
   * dev.guard.api.rule.InvalidRulesException} and changes nothing. See docs/BEHAVIOUR.md, "When
   * guard itself fails".
   *
   * @param resource the resource being entered, exited or compiled
   * @param error the unexpected error
   */
  default void onInternalError(String resource, Throwable error) {}

  /**
   * Called when the engine's token service stops or starts again reaching its backend (for
   * example Redis): once per change, not per call. While unavailable, cluster rules fall back as
   * their {@link dev.guard.api.rule.ClusterMode#fallbackToLocal()} says.
   *
   * @param available false when the backend became unavailable, true when it answers again
   * @param service the engine's token service
   */
  default void onTokenServiceAvailability(boolean available, TokenService service) {}
}
