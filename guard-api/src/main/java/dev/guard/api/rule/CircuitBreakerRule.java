package dev.guard.api.rule;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.internal.Checks;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable circuit-breaker rule: stop calling a resource that is failing or slow, then probe
 * it back to health.
 *
 * <pre>{@code
 * CircuitBreakerRule slow = CircuitBreakerRule.slowCallRatio("inventory", Duration.ofMillis(300), 0.5)
 *     .withMinCalls(10)
 *     .withStatWindow(Duration.ofSeconds(10), 10)
 *     .withOpenFor(Duration.ofSeconds(5));
 * CircuitBreakerRule failing = CircuitBreakerRule.errorRatio("payments", 0.3);
 * }</pre>
 *
 * <p>The breaker counts completed calls in a sliding window of {@code window} split into
 * {@code buckets} buckets (one bucket gives a tumbling window). Once at least {@code
 * minCalls} calls are in the window, it opens when the measured value exceeds {@code threshold}
 * (a ratio of exactly 1.0 opens a breaker whose threshold is 1.0). It then refuses every call for
 * {@code openFor}, lets up to {@code probes} probe calls through, and closes when they all
 * succeed or reopens when one fails. A half-open period that has not decided within {@code
 * probeTimeout} counts as a failed probe, so a probe that never ends cannot wedge the breaker.
 * The exact rules are in the project's {@code docs/BEHAVIOUR.md}.
 *
 * <p>The constructor validates every field and throws {@link IllegalArgumentException} naming the
 * field and the value, so an invalid rule never reaches an engine. Durations other than {@code
 * slowerThan} must be whole milliseconds.
 *
 * @param resource the protected resource; not blank
 * @param strategy what the breaker measures
 * @param threshold the value above which the breaker opens: a ratio in {@code [0, 1]} for the
 *     ratio strategies, a number of errors (from 0 to 10<sup>9</sup>) for {@link
 *     CircuitBreakerRule.Strategy#ERROR_COUNT}
 * @param slowerThan for {@link CircuitBreakerRule.Strategy#SLOW_CALL_RATIO}: a call whose response
 *     time (whole milliseconds) is greater than this is slow; from zero to one day. Null for the other strategies
 * @param minCalls the fewest completed calls in the window before the breaker may open; {@code >
 *     0}
 * @param window the length of the sliding window; positive whole milliseconds, at most one day
 * @param buckets how many buckets the window slides by; from 1 (a tumbling window) to 1,000, dividing {@code window} into whole milliseconds
 * @param openFor how long an opened breaker refuses calls before it lets a probe through;
 *     positive whole milliseconds, at most one day
 * @param probes how many probe calls a half-open breaker admits; {@code > 0}
 * @param probeTimeout how long a half-open breaker waits for its probes before it counts them as
 *     failed; positive whole milliseconds, at most one day, or null for
 *     {@code openFor}
 */
public record CircuitBreakerRule(
    String resource,
    CircuitBreakerRule.Strategy strategy,
    double threshold,
    @Nullable Duration slowerThan,
    int minCalls,
    Duration window,
    int buckets,
    Duration openFor,
    int probes,
    @Nullable Duration probeTimeout)
    implements Rule {

  /** The default fewest calls in the window before a breaker may open: 5. */
  public static final int DEFAULT_MIN_CALLS = 5;

  /** The default window length: 1 second. */
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(1);

  /** The default number of window buckets: 10 (a sliding window). */
  public static final int DEFAULT_BUCKETS = 10;

  /** The default open duration: 10 seconds. */
  public static final Duration DEFAULT_OPEN_FOR = Duration.ofSeconds(10);

  /** The default number of probe calls in the half-open state: 1. */
  public static final int DEFAULT_PROBES = 1;

  /**
   * Validates the fields.
   *
   * @param resource the protected resource
   * @param strategy what the breaker measures
   * @param threshold the value above which the breaker opens
   * @param slowerThan how slow a slow call is (slow-call ratio only), or null
   * @param minCalls the fewest calls in the window before the breaker may open
   * @param window the window length
   * @param buckets how many buckets the window slides by
   * @param openFor how long an opened breaker refuses calls
   * @param probes how many probes a half-open breaker admits
   * @param probeTimeout how long it waits for them, or null for {@code openFor}
   * @throws IllegalArgumentException if a field is invalid; the message names it and its value
   * @throws NullPointerException if a non-nullable field is null
   */
  public CircuitBreakerRule {
    resource = Checks.notBlank("resource", resource);
    Objects.requireNonNull(strategy, "strategy");
    Checks.finiteNonNegative("threshold", threshold);
    if (strategy != CircuitBreakerRule.Strategy.ERROR_COUNT && threshold > 1) {
      throw Checks.invalid("threshold", threshold,
          "must be a ratio in [0, 1] for strategy " + strategy);
    }
    Checks.atMost("threshold", threshold, RuleLimits.MAX_COUNT);
    threshold += 0.0; // -0 is 0, so equal thresholds make equal rules
    if (strategy == CircuitBreakerRule.Strategy.SLOW_CALL_RATIO) {
      Checks.notNegative("slowerThan", slowerThan);
      Checks.atMost("slowerThan", slowerThan, RuleLimits.MAX_DURATION);
    } else if (slowerThan != null) {
      throw Checks.invalid("slowerThan", slowerThan,
          "must be null for strategy " + strategy);
    }
    Checks.positive("minCalls", minCalls);
    long windowMs = wholeMillis("window", window);
    Checks.positive("buckets", buckets);
    Checks.atMost("buckets", buckets, RuleLimits.MAX_BUCKETS);
    if (windowMs % buckets != 0) {
      throw Checks.invalid("buckets", buckets,
          "must divide window (" + windowMs + " ms) into whole milliseconds");
    }
    wholeMillis("openFor", openFor);
    Checks.positive("probes", probes);
    if (probeTimeout != null) {
      wholeMillis("probeTimeout", probeTimeout);
    }
  }

  private static long wholeMillis(String field, @Nullable Duration value) {
    Duration checked = Checks.positive(field, value);
    Checks.atMost(field, checked, RuleLimits.MAX_DURATION);
    return Checks.wholeMillis(field, checked).toMillis();
  }

  /**
   * Creates a slow-call-ratio breaker with the default window, minimum calls, open duration and
   * probes.
   *
   * @param resource the protected resource
   * @param slowerThan a call slower than this (in whole milliseconds) is slow
   * @param ratio the share of slow calls above which the breaker opens, in {@code [0, 1]}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static CircuitBreakerRule slowCallRatio(String resource, Duration slowerThan, double ratio) {
    return new CircuitBreakerRule(resource, CircuitBreakerRule.Strategy.SLOW_CALL_RATIO, ratio, slowerThan,
        DEFAULT_MIN_CALLS, DEFAULT_WINDOW, DEFAULT_BUCKETS, DEFAULT_OPEN_FOR,
        DEFAULT_PROBES, null);
  }

  /**
   * Creates an error-ratio breaker with the default window, minimum calls, open duration and
   * probes.
   *
   * @param resource the protected resource
   * @param ratio the share of failed calls above which the breaker opens, in {@code [0, 1]}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static CircuitBreakerRule errorRatio(String resource, double ratio) {
    return new CircuitBreakerRule(resource, CircuitBreakerRule.Strategy.ERROR_RATIO, ratio, null,
        DEFAULT_MIN_CALLS, DEFAULT_WINDOW, DEFAULT_BUCKETS, DEFAULT_OPEN_FOR,
        DEFAULT_PROBES, null);
  }

  /**
   * Creates an error-count breaker with the default window, minimum calls, open duration and
   * probes.
   *
   * @param resource the protected resource
   * @param count the number of failed calls in the window above which the breaker opens; {@code
   *     >= 0}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static CircuitBreakerRule errorCount(String resource, int count) {
    return new CircuitBreakerRule(resource, CircuitBreakerRule.Strategy.ERROR_COUNT,
        Checks.nonNegative("threshold", count), null, DEFAULT_MIN_CALLS, DEFAULT_WINDOW,
        DEFAULT_BUCKETS, DEFAULT_OPEN_FOR, DEFAULT_PROBES, null);
  }

  /**
   * Returns how long a half-open breaker waits for its probes: {@code probeTimeout}, or {@code
   * openFor} when that is null.
   *
   * @return the probe timeout in force
   */
  public Duration effectiveProbeTimeout() {
    return probeTimeout != null ? probeTimeout : openFor;
  }

  /**
   * Returns a copy with another threshold.
   *
   * @param newThreshold a ratio in {@code [0, 1]}, or an error count
   * @return the new rule
   */
  public CircuitBreakerRule withThreshold(double newThreshold) {
    return new CircuitBreakerRule(resource, strategy, newThreshold, slowerThan, minCalls,
        window, buckets, openFor, probes, probeTimeout);
  }

  /**
   * Returns a copy with another slow-call threshold (slow-call-ratio breakers only).
   *
   * @param slowerThan a call slower than this is slow; not negative
   * @return the new rule
   */
  public CircuitBreakerRule withSlowerThan(Duration slowerThan) {
    return new CircuitBreakerRule(resource, strategy, threshold, slowerThan, minCalls,
        window, buckets, openFor, probes, probeTimeout);
  }

  /**
   * Returns a copy with another minimum number of calls.
   *
   * @param newMinCalls the fewest calls in the window before the breaker may open; {@code > 0}
   * @return the new rule
   */
  public CircuitBreakerRule withMinCalls(int newMinCalls) {
    return new CircuitBreakerRule(resource, strategy, threshold, slowerThan, newMinCalls,
        window, buckets, openFor, probes, probeTimeout);
  }

  /**
   * Returns a copy with another window.
   *
   * @param window the window length; positive whole milliseconds
   * @param buckets how many buckets it slides by (1: tumbling); must divide the window into whole
   *     milliseconds
   * @return the new rule
   */
  public CircuitBreakerRule withStatWindow(Duration window, int buckets) {
    return new CircuitBreakerRule(resource, strategy, threshold, slowerThan, minCalls,
        window, buckets, openFor, probes, probeTimeout);
  }

  /**
   * Returns a copy with another open duration.
   *
   * @param newOpenFor how long an opened breaker refuses calls; positive whole milliseconds
   * @return the new rule
   */
  public CircuitBreakerRule withOpenFor(Duration newOpenFor) {
    return new CircuitBreakerRule(resource, strategy, threshold, slowerThan, minCalls,
        window, buckets, newOpenFor, probes, probeTimeout);
  }

  /**
   * Returns a copy with other half-open settings.
   *
   * @param newMaxProbes how many probe calls a half-open breaker admits; {@code > 0}
   * @param newProbeTimeout how long it waits for them; positive whole milliseconds, or null for
   *     the open duration
   * @return the new rule
   */
  public CircuitBreakerRule withProbes(int newMaxProbes, @Nullable Duration newProbeTimeout) {
    return new CircuitBreakerRule(resource, strategy, threshold, slowerThan, minCalls,
        window, buckets, openFor, newMaxProbes, newProbeTimeout);
  }

  /** What a circuit breaker ({@link CircuitBreakerRule}) measures to decide that its resource is unhealthy. */
  public enum Strategy {
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
}
