package dev.guard.engine;

/**
 * What one resource did during a period of whole seconds: one second of the metrics history
 * ({@link GuardEngine#metricsHistory(String, long, long)}), or every recorded second together ({@link
 * GuardEngine#metricsTotals(String)}). Counts are permits, like the live statistics; times are engine time
 * (milliseconds since the engine was built). docs/BEHAVIOUR.md, "Metrics history", has the rules.
 *
 * @param fromMs the period's start in engine time, a multiple of 1000
 * @param toMs the period's end (exclusive) in engine time: {@code fromMs + 1000} for one second
 * @param pass admitted permits
 * @param block refused permits, all kinds together
 * @param flowBlock refused by flow rules
 * @param paramFlowBlock refused by hot-parameter rules
 * @param degradeBlock refused by circuit breakers
 * @param systemBlock refused by system protection
 * @param authorityBlock refused by origin lists
 * @param success completed permits (with or without a business error)
 * @param exception completed permits that ended with a traced business error
 * @param rtSumMs the sum of the response times of the completed calls, in milliseconds
 * @param minRtMs the smallest response time of the period in milliseconds, or 0 when nothing
 *     completed
 * @param concurrency the resource's concurrency gauge when the period's last second was recorded
 *     (a sample, not a peak)
 */
public record PeriodStats(
    long fromMs,
    long toMs,
    long pass,
    long block,
    long flowBlock,
    long paramFlowBlock,
    long degradeBlock,
    long systemBlock,
    long authorityBlock,
    long success,
    long exception,
    long rtSumMs,
    long minRtMs,
    long concurrency) {

  /**
   * Returns the permits refused by one kind of protection in this period.
   *
   * @param kind the kind
   * @return the count
   */
  public long blocked(BlockKind kind) {
    return switch (kind) {
      case FLOW -> flowBlock;
      case PARAM_FLOW -> paramFlowBlock;
      case DEGRADE -> degradeBlock;
      case SYSTEM -> systemBlock;
      case AUTHORITY -> authorityBlock;
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
   * @return {@code pass + block}
   */
  public long total() {
    return pass + block;
  }
}
