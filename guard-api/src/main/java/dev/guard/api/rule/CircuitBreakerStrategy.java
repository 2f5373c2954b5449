package dev.guard.api.rule;

/** What a circuit breaker ({@link CircuitBreakerRule}) measures to decide that its resource is unhealthy. */
public enum CircuitBreakerStrategy {
  /**
   * The share of calls slower than {@link CircuitBreakerRule#slowerThan()}: the breaker opens
   * when it exceeds {@link CircuitBreakerRule#threshold()} (a ratio in {@code [0, 1]}).
   */
  SLOW_CALL_RATIO,
  /**
   * The share of calls that ended with a business error: the breaker opens when it exceeds
   * {@link CircuitBreakerRule#threshold()} (a ratio in {@code [0, 1]}).
   */
  ERROR_RATIO,
  /**
   * The number of calls that ended with a business error: the breaker opens when it exceeds
   * {@link CircuitBreakerRule#threshold()}.
   */
  ERROR_COUNT
}
