package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Quota;
import dev.guard.engine.internal.quota.QuotaBuckets;
import org.jspecify.annotations.Nullable;

/**
 * What one limit of a QPS rule tells a caller about its budget: the rule's rate per second or one
 * of its quotas, with its limit over a window, the calls it would still admit now and when its
 * budget grows again (docs/BEHAVIOUR.md, "Budget").
 *
 * <p>The rate's limit is the rule's count per second, {@code ⌊count⌋} over one second; a count
 * below one call per second is one call over {@code ⌈1 / count⌉} seconds (a count of 0 is 0 over
 * one second). A quota's limit is its own, over its period rounded up to whole seconds.
 *
 * @param rule the rule
 * @param quota the quota, or null for the rule's rate per second
 * @param limit the calls admitted per window
 * @param windowSeconds the window, in whole seconds
 * @param remaining the calls it would still admit now
 * @param resetNanos the time until its budget grows again
 */
public record FlowBudget(FlowRule rule, @Nullable Quota quota, long limit, long windowSeconds,
    long remaining, long resetNanos) {

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  static FlowBudget ofRate(FlowRule rule, long remaining, long resetNanos) {
    double count = rule.threshold();
    if (count >= 1 || count <= 0) {
      long limit = count >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.floor(count);
      return new FlowBudget(rule, null, limit, 1L, Math.min(remaining, limit), resetNanos);
    }
    long window = (long) Math.ceil(1.0 / count);
    return new FlowBudget(rule, null, 1L, window, Math.min(remaining, 1L), resetNanos);
  }

  /**
   * The budget of quota {@code q} of a rule; a quota of 0 never refills, and tells its period as
   * the reset.
   */
  static FlowBudget ofQuota(FlowRule rule, int q, QuotaBuckets buckets, long nowNanos) {
    Quota quota = rule.quotas().get(q);
    long periodNanos = quota.period().toNanos();
    long window = Math.max(1L, (periodNanos + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND);
    long reset = quota.limit() == 0 ? periodNanos : buckets.resetNanos(q, nowNanos);
    return new FlowBudget(rule, quota, quota.limit(), window, buckets.remaining(q, nowNanos),
        reset);
  }
}
