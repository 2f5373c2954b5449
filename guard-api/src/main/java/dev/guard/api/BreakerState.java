package dev.guard.api;

/**
 * The state of a circuit breaker.
 *
 * <p>A breaker starts {@link #CLOSED}. It moves to {@link #OPEN} when its measure exceeds the
 * rule's threshold, to {@link #HALF_OPEN} when the open duration has passed and a call arrives
 * (that call is a probe), and back to {@link #CLOSED} or {@link #OPEN} by the probes' outcome. The
 * forced states are set only by an operator ({@link CircuitBreaker#forceOpen()}, {@link
 * CircuitBreaker#forceClosed()}) and left only by {@link CircuitBreaker#reset()}.
 */
public enum BreakerState {
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
