package dev.guard.api;

/**
 * What one resource did during a period of whole seconds: one second of the metrics history
 * ({@code GuardEngine.metricsHistory}), or every recorded second together ({@code
 * GuardEngine.metricsTotals}). Counts are permits, like the live statistics; times are engine time
 * (milliseconds since the engine was built). docs/BEHAVIOUR.md, "Metrics history", has the rules.
 *
 * @param fromMs the period's start in engine time, a multiple of 1000
 * @param toMs the period's end (exclusive) in engine time: {@code fromMs + 1000} for one second
 * @param pass admitted permits
 * @param refused refused permits, all kinds together
 * @param flowRefused refused by flow rules
 * @param perValueRefused refused by per-value rules
 * @param circuitBreakerRefused refused by circuit breakers
 * @param systemRefused refused by system protection
 * @param originRefused refused by origin lists
 * @param adaptiveRefused refused by adaptive concurrency limits
 * @param success completed permits (with or without a business error)
 * @param exception completed permits that ended with a traced business error
 * @param rtSumMs the sum of the response times of the completed calls, in milliseconds
 * @param minRtMs the smallest response time of the period in milliseconds, or 0 when nothing
 *     completed
 * @param concurrency the resource's concurrency gauge when the period's last second was recorded
 *     (a sample, not a peak)
 * @param adaptiveLimit the limit of the resource's adaptive concurrency rule when the period's
 *     last second was recorded (a sample), or {@link #NO_ADAPTIVE_LIMIT} when it had none
 */
public record PeriodStats(
    long fromMs,
    long toMs,
    long pass,
    long refused,
    long flowRefused,
    long perValueRefused,
    long circuitBreakerRefused,
    long systemRefused,
    long originRefused,
    long adaptiveRefused,
    long success,
    long exception,
    long rtSumMs,
    long minRtMs,
    long concurrency,
    int adaptiveLimit) {

  /** {@link #adaptiveLimit()} of a resource without an adaptive concurrency rule: {@value}. */
  public static final int NO_ADAPTIVE_LIMIT = -1;

  /**
   * Returns the permits refused by one kind of protection in this period.
   *
   * @param kind the kind
   * @return the count
   */
  public long refused(RefusedException.Kind kind) {
    return switch (kind) {
      case FLOW -> flowRefused;
      case PER_VALUE -> perValueRefused;
      case CIRCUIT_BREAKER -> circuitBreakerRefused;
      case SYSTEM -> systemRefused;
      case ORIGIN -> originRefused;
      case ADAPTIVE_CONCURRENCY -> adaptiveRefused;
    };
  }

  /**
   * Returns the average response time of the calls completed in this period.
   *
   * @return {@code rtSumMs / success} in milliseconds, or 0 when nothing completed
   */
  public double averageRtMs() {
    return success == 0 ? 0.0 : (double) rtSumMs / success;
  }

  /**
   * Returns admitted plus refused permits.
   *
   * @return {@code pass + refused}
   */
  public long total() {
    return pass + refused;
  }
}
