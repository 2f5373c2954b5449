package dev.guard.api.internal;

import java.time.Duration;

/**
 * The upper bounds of rule values, checked by every rule record when it is built, so that a rule
 * an engine accepts can always be compiled: no duration, rate or size of a valid rule overflows
 * the arithmetic an engine does with it. The lower bounds are stated on each record's fields; the
 * whole table is in the project's {@code docs/BEHAVIOUR.md} ("Value ranges").
 *
 * <pre>{@code
 * CircuitBreakerRule.errorRatio("payments", 0.5).withOpenFor(Duration.ofDays(2));
 * // IllegalArgumentException: openFor must be at most PT24H, was PT48H
 * }</pre>
 */
public final class RuleLimits {

  /**
   * The longest duration any rule field holds: one day. Warm-up periods, queueing bounds, token
   * periods, breaker windows, open durations, probe timeouts, slow-call and response-time
   * thresholds, cluster windows and lease times are all at most this long.
   */
  public static final Duration MAX_DURATION = Duration.ofDays(1);

  /**
   * The largest rate or count threshold: {@value} (calls per second for QPS limits, calls for
   * concurrency limits, failed calls for an error-count breaker).
   */
  public static final double MAX_COUNT = 1e9;

  /** The largest warm-up cold factor: {@value}. */
  public static final int MAX_COLD_FACTOR = 100;

  /** The most buckets a sliding window of a rule has: {@value}. */
  public static final int MAX_BUCKETS = 1000;

  /**
   * The largest argument index of a per-value rule: {@value}; the smallest is its negation
   * (counting from the end of a call's arguments).
   */
  public static final int MAX_ARGUMENT_INDEX = 255;

  /** The most values a per-value rule remembers: {@value}. */
  public static final int MAX_VALUES = 10_000_000;

  /** The largest system-load threshold of a system rule (load average per usable CPU): {@value}. */
  public static final double MAX_SYSTEM_LOAD = 10_000;

  /** The most per-value rules one resource has: {@value}. */
  public static final int MAX_PER_VALUE_RULES_PER_RESOURCE = 64;

  /**
   * The most origin rules one resource has: {@value}; one rule lists every origin it allows
   * or denies.
   */
  public static final int MAX_ORIGIN_RULES_PER_RESOURCE = 1;

  private RuleLimits() {}
}
