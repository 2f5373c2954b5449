package dev.guard.engine.internal.quota;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.Quota;
import dev.guard.api.rule.Rule;
import org.jspecify.annotations.Nullable;

/**
 * What one limit tells a caller about its budget (docs/BEHAVIOUR.md, "Budget"): a flow rule's rate
 * per second, a per-value rule's rate for one value, or one of either rule's quotas; with its limit
 * over a window, the calls it would still admit now and when its budget grows again.
 *
 * <p>A flow rule's rate is its count per second, {@code ⌊count⌋} over one second; a count below
 * one call per second is one call over {@code ⌈1 / count⌉} seconds (a count of 0 is 0 over one
 * second). A token bucket's limit is its rate over its period rounded up to whole seconds.
 *
 * @param rule the rule
 * @param quota the quota, or null for the rule's rate
 * @param limit the calls admitted per window
 * @param windowSeconds the window, in whole seconds
 * @param remaining the calls it would still admit now
 * @param resetNanos the time until its budget grows again
 */
public record LimitBudget(Rule rule, @Nullable Quota quota, long limit, long windowSeconds,
    long remaining, long resetNanos) {

  private static final long NANOS_PER_MS = 1_000_000L;
  private static final long MS_PER_SECOND = 1_000L;

  /** The budget of a flow rule's rate per second. */
  public static LimitBudget ofRate(FlowRule rule, long remaining, long resetNanos) {
    double count = rule.threshold();
    if (count >= 1 || count <= 0) {
      long limit = count >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.floor(count);
      return new LimitBudget(rule, null, limit, 1L, Math.min(remaining, limit), resetNanos);
    }
    long window = (long) Math.ceil(1.0 / count);
    return new LimitBudget(rule, null, 1L, window, Math.min(remaining, 1L), resetNanos);
  }

  /**
   * The budget of quota {@code q} of a rule, kept in {@code buckets}; a quota of 0 never refills,
   * and tells its period as the reset.
   */
  public static LimitBudget ofQuota(Rule rule, Quota quota, int q, QuotaBuckets buckets,
      long nowNanos) {
    long periodNanos = quota.period().toNanos();
    long reset = quota.limit() == 0 ? periodNanos : buckets.resetNanos(q, nowNanos);
    return new LimitBudget(rule, quota, quota.limit(), windowSeconds(quota.period().toMillis()),
        buckets.remaining(q, nowNanos), reset);
  }

  /**
   * The budget of one token bucket ({@link TokenBuckets}) of {@code rate} tokens per period and
   * {@code max} tokens: the tokens it would hold if refilled now, at most {@code rate}; the time
   * until the next refill adds one, 0 when it is full. A rate of 0 never refills, and tells its
   * period as the reset. The read changes nothing.
   *
   * @param rule the rule
   * @param quota the quota this bucket is, or null for the rule's rate
   * @param rate the tokens earned per period, the limit reported
   * @param max the bucket's size; {@code >= rate}
   * @param periodMs the period
   * @param bits the bucket's state ({@code pack(nowMs, max)} for a bucket not made yet: full)
   * @param nowMs the bucket's time, in ms
   * @return the budget
   */
  public static LimitBudget ofBucket(Rule rule, @Nullable Quota quota, int rate, long max,
      long periodMs, long bits, long nowMs) {
    long window = windowSeconds(periodMs);
    if (rate == 0) {
      return new LimitBudget(rule, quota, 0, window, 0, periodMs * NANOS_PER_MS);
    }
    long refilled = TokenBuckets.next(bits, rate, max, periodMs, 0, nowMs);
    long tokens = refilled & TokenBuckets.TOKEN_MASK;
    long reset = tokens >= max ? 0
        : TokenBuckets.retryAfterMs(refilled, rate, periodMs, (int) tokens + 1, nowMs)
            * NANOS_PER_MS;
    return new LimitBudget(rule, quota, rate, window, Math.min(tokens, rate), reset);
  }

  private static long windowSeconds(long periodMs) {
    return Math.max(1L, (periodMs + MS_PER_SECOND - 1) / MS_PER_SECOND);
  }
}
