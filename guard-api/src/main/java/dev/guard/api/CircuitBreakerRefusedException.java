package dev.guard.api;

import dev.guard.api.rule.CircuitBreakerRule;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Thrown when a circuit breaker refuses a call: it is open, or half-open with all its probes
 * taken. See {@link RefusedException} for the common contract.
 *
 * <pre>{@code
 * } catch (CircuitBreakerRefusedException refused) {
 *   response.setHeader("Retry-After", String.valueOf(refused.retryAfterMillis() / 1000 + 1));
 * }
 * }</pre>
 *
 * <p>An engine throws the same instance for every refusal by one breaker, so that refusing
 * allocates nothing. {@link #state()} and {@link #retryAfter()} therefore read the breaker when
 * they are called, not when the call was refused: read them while handling the refusal.
 */
public final class CircuitBreakerRefusedException extends RefusedException {

  private static final long serialVersionUID = 1L;

  private final transient CircuitBreaker breaker;

  /**
   * Creates the exception for the refusals of one breaker.
   *
   * @param breaker the refusing breaker
   */
  public CircuitBreakerRefusedException(CircuitBreaker breaker) {
    super("a circuit breaker", breaker.resource(), breaker.rule());
    this.breaker = Objects.requireNonNull(breaker, "breaker");
  }

  /**
   * Returns the rule of the breaker that refused the call.
   *
   * @return the refusing rule
   */
  @Override
  public CircuitBreakerRule rule() {
    return (CircuitBreakerRule) super.rule();
  }

  /**
   * Returns the breaker that refused the call, for reading or operator controls.
   *
   * @return the breaker
   */
  public CircuitBreaker breaker() {
    return breaker;
  }

  /**
   * Returns the refusing breaker's state now (usually {@link BreakerState#OPEN}, {@link
   * BreakerState#HALF_OPEN} or {@link BreakerState#FORCED_OPEN}).
   *
   * @return the state
   */
  public BreakerState state() {
    return breaker.state();
  }

  /**
   * Returns how long until the refusing breaker lets a probe through; see {@link
   * CircuitBreaker#retryAfter()}. Always present for a breaker (zero once a probe may pass).
   *
   * @return the wait
   */
  @Override
  public Optional<Duration> retryAfter() {
    return super.retryAfter();
  }

  @Override
  long retryAfterNanos() {
    return breaker.retryAfter().toNanos();
  }
}
