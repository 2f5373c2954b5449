package dev.guard.api;

import dev.guard.api.rule.CircuitBreakerRule;
import java.time.Duration;
import dev.guard.api.internal.Checks;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A live handle on one circuit breaker of an engine: the breaker built for one {@link CircuitBreakerRule}
 * of one resource. Reads return the breaker's state at the moment of the call; the operator
 * controls change it at once and are reported to the engine's listeners like any other
 * transition.
 *
 * <pre>{@code
 * for (CircuitBreaker breaker : engine.breakers("payments")) {
 *   if (breaker.state() == CircuitBreaker.State.OPEN) {
 *     log.warn("payments refused for another {}", breaker.retryAfter());
 *   }
 * }
 * engine.breakers("payments").get(0).forceOpen();   // maintenance: refuse every call
 * }</pre>
 *
 * <p>A handle belongs to one breaker: loading an equal rule again keeps the breaker (and so the
 * handle), a changed rule builds a new breaker, and the old handle then no longer affects calls.
 * Transitions other than the operator's happen when calls enter or exit: an open breaker whose
 * open duration has passed still reads {@link CircuitBreaker.State#OPEN} until the next call probes it.
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
  CircuitBreaker.State state();

  /**
   * Returns how long until the breaker lets a probe through: for {@link CircuitBreaker.State#OPEN} the
   * time left of the open duration (zero once it has passed); for {@link CircuitBreaker.State#HALF_OPEN}
   * the time left until the probes must have decided; for {@link CircuitBreaker.State#FORCED_OPEN} the
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

  /**
   * The state of a circuit breaker.
   *
   * <p>A breaker starts {@link #CLOSED}. It moves to {@link #OPEN} when its measure exceeds the
   * rule's threshold, to {@link #HALF_OPEN} when the open duration has passed and a call arrives
   * (that call is a probe), and back to {@link #CLOSED} or {@link #OPEN} by the probes' outcome. The
   * forced states are set only by an operator ({@link CircuitBreaker#forceOpen()}, {@link
   * CircuitBreaker#forceClosed()}) and left only by {@link CircuitBreaker#reset()}.
   */
  enum State {
    /** Calls pass; outcomes are counted and may open the breaker. */
    CLOSED,
    /** Calls are refused until the open duration has passed. */
    OPEN,
    /** A bounded number of probe calls pass; their outcome closes or reopens the breaker. */
    HALF_OPEN,
    /** Every call is refused until an operator resets the breaker; no probes. */
    FORCED_OPEN,
    /** Every call passes and outcomes are counted, but the breaker never opens until reset. */
    FORCED_CLOSED
  }

  /**
   * A circuit breaker changed state.
   *
   * <pre>{@code
   * GuardEngine engine = GuardEngine.builder()
   *     .listener(new EngineListener() {
   *       public void onBreakerStateChanged(CircuitBreaker.Transition change) {
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
  record Transition(
      String resource,
      CircuitBreakerRule rule,
      CircuitBreaker.State from,
      CircuitBreaker.State to,
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
    public Transition {
      Checks.notBlank("resource", resource);
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(trigger, "trigger");
    }
  }
}
