package dev.guard.api.event;

import dev.guard.api.BreakerState;
import dev.guard.api.internal.Checks;
import dev.guard.api.rule.CircuitBreakerRule;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A circuit breaker changed state.
 *
 * <pre>{@code
 * GuardEngine engine = GuardEngine.builder()
 *     .listener(new EngineListener() {
 *       public void onBreakerStateChanged(BreakerTransition change) {
 *         log.warn("{} breaker {} -> {} ({})", change.resource(), change.from(), change.to(),
 *             change.trigger());
 *       }
 *     })
 *     .build();
 * }</pre>
 *
 * @param resource the resource the breaker protects
 * @param rule the breaker's rule
 * @param from the state before
 * @param to the state after
 * @param trigger the value that caused the change, where there is one: the ratio or error count
 *     that opened a closed breaker, 1.0 for a probe that failed, was refused by a later check or
 *     timed out; empty when a breaker half-opens, closes, or is set by an operator
 * @param engineTimeMs when the change happened, in the engine's milliseconds (counted from the
 *     engine's creation)
 */
public record BreakerTransition(
    String resource,
    CircuitBreakerRule rule,
    BreakerState from,
    BreakerState to,
    OptionalDouble trigger,
    long engineTimeMs) {

  /**
   * Validates the fields.
   *
   * @param resource the resource the breaker protects
   * @param rule the breaker's rule
   * @param from the state before
   * @param to the state after
   * @param trigger the value that caused the change, or empty
   * @param engineTimeMs when it happened, engine milliseconds
   * @throws NullPointerException if a field is null
   * @throws IllegalArgumentException if {@code resource} is blank
   */
  public BreakerTransition {
    Checks.notBlank("resource", resource);
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(trigger, "trigger");
  }
}
