package dev.guard.spi;

import dev.guard.api.rule.RuleSet;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.InvalidRulesException;
import java.util.List;
import dev.guard.api.RefusedException;
import java.util.Map;

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
  default void onBreakerStateChanged(CircuitBreaker.Transition transition) {}

  /**
   * Called when a whole rule set took effect ({@code GuardEngine#apply}, a {@link
   * RuleSource}'s delivery of its part, or {@code GuardEngine#rollBack}), after {@link #onRulesReplaced} was called for
   * each resource it changed.
   *
   * @param revision the applied set, its source and what it changed ({@link RuleSet.Revision#changes()})
   */
  default void onRulesApplied(RuleSet.Revision revision) {}

  /**
   * Called when a rule set was refused: the rules in force did not change.
   *
   * @param source who offered the set (a rule source's name, or the caller's label)
   * @param errors every reason, each with where the problem is
   */
  default void onRulesInvalid(String source, List<InvalidRulesException.Error> errors) {}

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
  default void onRefusals(EngineListener.Refusals entry) {}

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

  /**
   * The refusals of one resource during one whole second, as the refusal log reports them ({@link
   * EngineListener#onRefusals}): how many permits each kind of protection refused and how many each
   * calling origin had refused. Kinds and origins are counted separately (not as pairs); origins are
   * those the resource measures (its origin cap applies), and calls without an origin are not in
   * {@code byOrigin}. docs/BEHAVIOUR.md, "Refusal log", has the rules.
   *
   * @param resource the resource
   * @param secondMs the second's start in engine time (milliseconds since the engine was built)
   * @param refused refused permits in the second, all kinds together
   * @param byKind refused permits per kind; kinds that refused nothing are left out
   * @param byOrigin refused permits per calling origin; origins that had nothing refused are left out
   */
  record Refusals(
      String resource, long secondMs, long refused, Map<RefusedException.Kind, Long> byKind,
      Map<String, Long> byOrigin) {

    /**
     * Copies the maps.
     *
     * @param resource the resource
     * @param secondMs the second's start
     * @param refused refused permits
     * @param byKind refused permits per kind
     * @param byOrigin refused permits per origin
     */
    public Refusals {
      byKind = Map.copyOf(byKind);
      byOrigin = Map.copyOf(byOrigin);
    }
  }
}
