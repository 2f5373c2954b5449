package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.FlowMetrics;
import dev.guard.api.rule.FlowRule;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Fast reject at the rate of a {@link RateSource} (the rule's count, or a warm-up rate), or on the
 * live concurrency for concurrency rules.
 *
 * <p><b>Decision</b>, with {@code r} the current rate (the count for concurrency rules) and
 * {@code used} = {@code ⌊passQps⌋} of the selected node (its concurrency for concurrency rules):
 *
 * <ul>
 *   <li>{@code permits ≤ 0} passes; {@code count == 0} refuses every other call.
 *   <li>{@code permits ≤ r} (the usual case): pass iff {@code used + permits ≤ r}, exactly as
 *       Sentinel (for warm-up, scenario A4 of docs/SHAPING.md: 3 3 3 3 3 4 4 4 5 5 6 7 10 … per
 *       second for count 10, 10 s, factor 3).
 *   <li>{@code permits > r} (sparse mode, e.g. a cold warm-up rate or a count below one call per
 *       second): pass iff the window is empty ({@code used == 0}) and at least {@code permits / r}
 *       seconds have passed since the previous sparse admission (the first one passes at once). A
 *       compare-and-set on that admission time lets exactly one of several simultaneous callers
 *       through. Sentinel admits nothing here, so a rate below one per second starves forever.
 *   <li>A prioritized QPS call over the limit may borrow a pass from the next bucket of the
 *       selected node's window if that bucket starts within the occupy timeout and, once the
 *       oldest bucket slides out, the window would hold no more than {@code r} passes including
 *       everything already borrowed. The controller only decides; the flow slot registers the
 *       borrowed pass and waits.
 * </ul>
 *
 * <p>A QPS rule that measures every call of its resource (DIRECT, {@code origin} default)
 * decides the usual case from a {@link PassBudget} instead of reading the window on every call:
 * the same decisions, but a decision touches only the calling thread's cell, so threads on one
 * resource do not pass the window's counters between cores, and admissions within a bucket never
 * exceed the limit. A warm-up rate gives the budget its current value, so the budget is recomputed
 * when the rate changes.
 *
 * <p>Thread-safe and lock-free; a decision allocates nothing (a budget allocates one small object
 * per bucket).
 */
final class RefuseController implements TrafficShapingController {

  private static final long NEVER = Long.MIN_VALUE;

  private final FlowRule.Metric grade;
  private final RateSource rate;
  private final long occupyTimeoutMs;
  private final @Nullable PassBudget budget;
  private final AtomicLong lastSparseAdmissionNanos = new AtomicLong(NEVER);

  /**
   * Creates a controller.
   *
   * @param grade what the rate limits
   * @param rate the rate source (a constant one for concurrency rules)
   * @param occupyTimeoutMs the longest wait of a prioritized call on a borrowed pass
   * @param budgeted whether QPS decisions may use a {@link PassBudget}: only for rules that
   *     measure every call of their resource on its cluster node
   */
  RefuseController(FlowRule.Metric grade, RateSource rate, long occupyTimeoutMs, boolean budgeted) {
    this.grade = grade;
    this.rate = rate;
    this.occupyTimeoutMs = occupyTimeoutMs;
    this.budget = budgeted && grade == FlowRule.Metric.QPS ? new PassBudget() : null;
  }

  @Override
  public long decide(FlowMetrics node, int permits, boolean prioritized, long nowNanos, long nowMs) {
    if (permits <= 0) {
      return Decision.PASS;
    }
    if (grade == FlowRule.Metric.CONCURRENCY) {
      return node.concurrency() + permits <= rate.count() ? Decision.PASS : Decision.REFUSE;
    }
    double limit = rate.rate(node, nowMs);
    PassBudget passes = budget;
    if (passes != null && permits <= limit) {
      int taken = passes.acquire(node, limit, permits, nowMs);
      if (taken == PassBudget.ADMITTED) {
        return Decision.PASS;
      }
      if (taken == PassBudget.REFUSED) {
        return prioritized ? borrow(node, permits, limit, nowMs) : Decision.REFUSE;
      }
    }
    long used = (long) node.passQps(nowMs);
    if (permits <= limit) {
      if (used + permits <= limit) {
        return Decision.PASS;
      }
    } else if (used == 0 && limit > 0) {
      return admitSparse(permits, limit, nowNanos);
    }
    if (prioritized) {
      return borrow(node, permits, limit, nowMs);
    }
    return Decision.REFUSE;
  }

  private long borrow(FlowMetrics node, int permits, double limit, long nowMs) {
    long waitMs = node.tryOccupyNext(nowMs, permits, limit, occupyTimeoutMs);
    return waitMs < occupyTimeoutMs ? Decision.borrowThenPass(waitMs * 1_000_000L) : Decision.REFUSE;
  }

  private long admitSparse(int permits, double limit, long nowNanos) {
    long last = lastSparseAdmissionNanos.get();
    if (last != NEVER && nowNanos - last < ShapingChecks.spacingNanos(permits, limit)) {
      return Decision.REFUSE;
    }
    if (!lastSparseAdmissionNanos.compareAndSet(last, nowNanos)) {
      return Decision.REFUSE;
    }
    PassBudget passes = budget;
    if (passes != null) {
      passes.recount(); // this pass did not come from the budget
    }
    return Decision.PASS;
  }

  @Override
  public void refund(int permits, long decidedAtMs) {
    PassBudget passes = budget;
    if (passes != null) {
      passes.refund(permits, decidedAtMs);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Concurrency limits and a rate of 0: unknown. A rate of at least one call per second: until
   * the next bucket of the second-level window starts (the oldest passes then leave the window). A
   * lower rate (sparse admissions): until the spacing since the last admission has passed.
   */
  @Override
  public long retryAfterNanos(long nowNanos, int bucketLengthMs) {
    if (grade == FlowRule.Metric.CONCURRENCY) {
      return -1L;
    }
    double limit = rate.lastRate();
    if (limit <= 0) {
      return -1L;
    }
    if (limit < 1) {
      long last = lastSparseAdmissionNanos.get();
      return last == NEVER
          ? 0L
          : Math.max(0L, last + ShapingChecks.spacingNanos(1, limit) - nowNanos);
    }
    long bucketNanos = bucketLengthMs * 1_000_000L;
    return bucketNanos - nowNanos % bucketNanos;
  }

  /**
   * {@inheritDoc}
   *
   * <p>With {@code n = ⌊r⌋} the current rate, {@code I} the window's interval in seconds and
   * {@code p} its passes: a call passes while {@code ⌊p / I⌋ + 1 ≤ n}, that is while {@code p <
   * n·I}, so {@code ⌈n·I⌉ − p} more calls pass (at least 0); a rate below one call per second
   * admits one call when the window is empty and the spacing since the last admission has passed.
   */
  @Override
  public long remaining(@Nullable FlowMetrics node, long nowNanos, long nowMs) {
    if (grade == FlowRule.Metric.CONCURRENCY) {
      return -1L;
    }
    double limit = rate.lastRate();
    double interval = node == null ? 1.0 : node.secondGeometry().intervalSec();
    long passes = node == null ? 0L : Math.round(node.passQps(nowMs) * interval);
    if (limit >= 1) {
      long allowed = (long) Math.ceil(Math.floor(limit) * interval - 1e-9);
      return Math.max(0L, allowed - passes);
    }
    if (limit <= 0 || passes > 0) {
      return 0L;
    }
    long last = lastSparseAdmissionNanos.get();
    return last == NEVER || nowNanos - last >= ShapingChecks.spacingNanos(1, limit) ? 1L : 0L;
  }

  /** {@inheritDoc} <p>Until the next bucket of the window starts; for sparse rates, the spacing. */
  @Override
  public long resetNanos(long nowNanos, int bucketLengthMs) {
    long wait = retryAfterNanos(nowNanos, bucketLengthMs);
    return Math.max(0L, wait);
  }

  RateSource rate() {
    return rate;
  }
}
