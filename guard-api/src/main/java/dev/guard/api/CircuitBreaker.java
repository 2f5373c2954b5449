package dev.guard.api;

import dev.guard.api.rule.CircuitBreakerRule;
import java.time.Duration;

/**
 * A live handle on one circuit breaker of an engine: the breaker built for one {@link CircuitBreakerRule}
 * of one resource. Reads return the breaker's state at the moment of the call; the operator
 * controls change it at once and are reported to the engine's listeners like any other
 * transition.
 *
 * <pre>{@code
 * for (CircuitBreaker breaker : engine.breakers("payments")) {
 *   if (breaker.state() == BreakerState.OPEN) {
 *     log.warn("payments refused for another {}", breaker.retryAfter());
 *   }
 * }
 * engine.breakers("payments").get(0).forceOpen();   // maintenance: refuse every call
 * }</pre>
 *
 * <p>A handle belongs to one breaker: loading an equal rule again keeps the breaker (and so the
 * handle), a changed rule builds a new breaker, and the old handle then no longer affects calls.
 * Transitions other than the operator's happen when calls enter or exit: an open breaker whose
 * open duration has passed still reads {@link BreakerState#OPEN} until the next call probes it.
 * Handles are thread-safe.
 */
public interface CircuitBreaker {

  /**
   * Returns the resource the breaker protects.
   *
   * @return the resource name
   */
  String resource();

  /**
   * Returns the rule the breaker was built for.
   *
   * @return the rule
   */
  CircuitBreakerRule rule();

  /**
   * Returns the breaker's state now.
   *
   * @return the state
   */
  BreakerState state();

  /**
   * Returns how long until the breaker lets a probe through: for {@link BreakerState#OPEN} the
   * time left of the open duration (zero once it has passed); for {@link BreakerState#HALF_OPEN}
   * the time left until the probes must have decided; for {@link BreakerState#FORCED_OPEN} the
   * rule's open duration, as a hint; zero when the breaker admits calls.
   *
   * @return the wait, never negative; suitable for an HTTP {@code Retry-After}
   */
  Duration retryAfter();

  /** Refuses every call from now on, without probes, until {@link #reset()}. */
  void forceOpen();

  /** Admits every call from now on and never opens, until {@link #reset()}. */
  void forceClosed();

  /** Closes the breaker and empties its window: normal operation from scratch. */
  void reset();
}
