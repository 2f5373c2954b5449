package dev.guard.api.rule;

import dev.guard.api.internal.Checks;
import dev.guard.api.internal.RuleLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * A quota: at most {@code limit} calls per {@code period}, counted in fixed windows. A flow rule
 * ({@link FlowRule#quotas()}) counts the calls it applies to in one such window, a per-value
 * rule ({@link PerValueRule#quotas()}) one per value. A window starts full ({@code limit} calls)
 * at its refill and lasts {@code period}; the first call after it has ended refills it and starts
 * the next one (docs/BEHAVIOUR.md, "Quotas"). The arithmetic is a token bucket without burst
 * that earns {@code limit} tokens per period elapsed, up to {@code limit}.
 *
 * @param limit the calls per period; from 0 (refuses every call) to {@value #MAX_LIMIT}
 * @param period whole milliseconds, from 1 ms to one day
 */
public record Quota(int limit, Duration period) {

  /** The largest limit of a quota. */
  public static final int MAX_LIMIT = (1 << 24) - 1;

  /** The most quotas a rule may have besides its own threshold. */
  public static final int MAX_PER_RULE = 8;

  /**
   * Validates the fields.
   *
   * @param limit the calls per period
   * @param period the period
   * @throws IllegalArgumentException if a field is invalid; the message names it and its value
   */
  public Quota {
    Checks.nonNegative("quotas.limit", limit);
    if (limit > MAX_LIMIT) {
      throw Checks.invalid("quotas.limit", limit, "must be at most " + MAX_LIMIT);
    }
    Objects.requireNonNull(period, "period");
    if (period.isNegative() || period.isZero() || period.compareTo(RuleLimits.MAX_DURATION) > 0
        || period.getNano() % 1_000_000 != 0) {
      throw Checks.invalid("quotas.period", period,
          "must be whole milliseconds from 1 ms to 1 day");
    }
  }
}
