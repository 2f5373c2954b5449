package dev.guard;

import dev.guard.api.internal.Checks;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.CircuitBreakerStrategy;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one circuit breaker, given to {@link Guard#circuitBreaker}: a strategy ({@link
 * #slowCallRatio}, {@link #errorRatio} or {@link #errorCount}) and optionally the window, the
 * minimum calls, the open duration and the probes. Immutable: every step returns a new spec.
 *
 * <pre>{@code
 * Guard.of("inventory").circuitBreaker(b -> b
 *     .slowCallRatio(0.5).slowerThan(Duration.ofMillis(300))
 *     .minCalls(10)
 *     .window(Duration.ofSeconds(10))
 *     .openFor(Duration.ofSeconds(5)));
 * }</pre>
 *
 * <p>Defaults: at least 5 calls, a sliding window of 1 s in 10 buckets, open for 10 s, one probe
 * that must decide within the open duration. The exact behaviour is described on {@link
 * CircuitBreakerRule} and in the project's {@code docs/BEHAVIOUR.md}.
 */
public final class CircuitBreakerSpec {

  private final @Nullable CircuitBreakerStrategy strategy;
  private final double threshold;
  private final @Nullable Duration slowerThan;
  private final int minCalls;
  private final Duration window;
  private final int buckets;
  private final Duration openFor;
  private final int probes;
  private final @Nullable Duration probeTimeout;

  private CircuitBreakerSpec(@Nullable CircuitBreakerStrategy strategy, double threshold,
      @Nullable Duration slowerThan, int minCalls, Duration window, int buckets,
      Duration openFor, int probes, @Nullable Duration probeTimeout) {
    this.strategy = strategy;
    this.threshold = threshold;
    this.slowerThan = slowerThan;
    this.minCalls = minCalls;
    this.window = window;
    this.buckets = buckets;
    this.openFor = openFor;
    this.probes = probes;
    this.probeTimeout = probeTimeout;
  }

  static CircuitBreakerSpec defaults() {
    return new CircuitBreakerSpec(null, 0, null, CircuitBreakerRule.DEFAULT_MIN_CALLS,
        CircuitBreakerRule.DEFAULT_WINDOW, CircuitBreakerRule.DEFAULT_BUCKETS,
        CircuitBreakerRule.DEFAULT_OPEN_FOR, CircuitBreakerRule.DEFAULT_PROBES, null);
  }

  /**
   * Opens the breaker when more than {@code ratio} of the calls in the window are slower than
   * {@link #slowerThan} (which must be set too). A ratio of 1.0 opens when every call is slow.
   *
   * @param ratio the share of slow calls, in {@code [0, 1]}
   * @return the new spec
   * @throws IllegalArgumentException if {@code ratio} is not in {@code [0, 1]}
   * @throws IllegalStateException if a strategy is already chosen
   */
  public CircuitBreakerSpec slowCallRatio(double ratio) {
    return withStrategy(CircuitBreakerStrategy.SLOW_CALL_RATIO, ratio("slowCallRatio", ratio));
  }

  /**
   * Sets how slow a slow call is: a call whose response time, in whole milliseconds, is greater
   * than this (a call of exactly this duration is not slow).
   *
   * @param duration the slow-call threshold; not negative
   * @return the new spec
   * @throws IllegalArgumentException if {@code duration} is negative
   */
  public CircuitBreakerSpec slowerThan(Duration duration) {
    Checks.notNegative("slowerThan", duration);
    return new CircuitBreakerSpec(strategy, threshold, duration, minCalls, window, buckets,
        openFor, probes, probeTimeout);
  }

  /**
   * Opens the breaker when more than {@code ratio} of the calls in the window failed. A ratio of
   * 1.0 opens when every call failed.
   *
   * @param ratio the share of failed calls, in {@code [0, 1]}
   * @return the new spec
   * @throws IllegalArgumentException if {@code ratio} is not in {@code [0, 1]}
   * @throws IllegalStateException if a strategy is already chosen
   */
  public CircuitBreakerSpec errorRatio(double ratio) {
    return withStrategy(CircuitBreakerStrategy.ERROR_RATIO, ratio("errorRatio", ratio));
  }

  /**
   * Opens the breaker when more than {@code count} calls in the window failed.
   *
   * @param count the failed calls tolerated; {@code >= 0}
   * @return the new spec
   * @throws IllegalArgumentException if {@code count} is negative
   * @throws IllegalStateException if a strategy is already chosen
   */
  public CircuitBreakerSpec errorCount(int count) {
    return withStrategy(CircuitBreakerStrategy.ERROR_COUNT, Checks.nonNegative("errorCount", count));
  }

  /**
   * Sets the fewest completed calls in the window before the breaker may open (default 5).
   *
   * @param calls the minimum; {@code > 0}
   * @return the new spec
   * @throws IllegalArgumentException if {@code calls} is not positive
   */
  public CircuitBreakerSpec minCalls(int calls) {
    return new CircuitBreakerSpec(strategy, threshold, slowerThan,
        Checks.positive("minCalls", calls), window, buckets, openFor, probes, probeTimeout);
  }

  /**
   * Sets the length of the sliding window (default 1 s), keeping its 10 buckets: it must divide
   * into 10 whole milliseconds. Use {@link #window(Duration, int)} for another bucket count.
   *
   * @param length the window length
   * @return the new spec
   * @throws IllegalArgumentException if {@code length} is not positive
   */
  public CircuitBreakerSpec window(Duration length) {
    return window(length, buckets);
  }

  /**
   * Sets the window: its length and how many buckets it slides by. One bucket gives a tumbling
   * window, which forgets every call at each multiple of its length (the reference model's
   * window); more buckets keep a burst of failures that straddles a bucket edge together.
   *
   * @param length the window length; positive whole milliseconds
   * @param bucketCount the buckets; {@code > 0}, dividing {@code length} into whole milliseconds
   * @return the new spec
   * @throws IllegalArgumentException if a value is invalid
   */
  public CircuitBreakerSpec window(Duration length, int bucketCount) {
    Checks.positive("window", length);
    Checks.positive("buckets", bucketCount);
    return new CircuitBreakerSpec(strategy, threshold, slowerThan, minCalls, length, bucketCount,
        openFor, probes, probeTimeout);
  }

  /**
   * Sets how long an opened breaker refuses calls before it lets a probe through (default 10 s).
   *
   * @param duration the open duration; positive whole milliseconds
   * @return the new spec
   * @throws IllegalArgumentException if {@code duration} is not positive
   */
  public CircuitBreakerSpec openFor(Duration duration) {
    Checks.positive("openFor", duration);
    return new CircuitBreakerSpec(strategy, threshold, slowerThan, minCalls, window, buckets,
        duration, probes, probeTimeout);
  }

  /**
   * Sets how many probe calls a half-open breaker lets through (default 1); it closes when all of
   * them succeed and reopens at the first that fails.
   *
   * @param count the probes; {@code > 0}
   * @return the new spec
   * @throws IllegalArgumentException if {@code count} is not positive
   */
  public CircuitBreakerSpec probes(int count) {
    return new CircuitBreakerSpec(strategy, threshold, slowerThan, minCalls, window, buckets,
        openFor, Checks.positive("probes", count), probeTimeout);
  }

  /**
   * Sets how long a half-open breaker waits for its probes to decide (default: the open
   * duration); a half-open period still undecided then counts as a failed probe, so a probe that
   * never returns cannot keep the breaker half-open.
   *
   * @param timeout the bound; positive whole milliseconds
   * @return the new spec
   * @throws IllegalArgumentException if {@code timeout} is not positive
   */
  public CircuitBreakerSpec probeTimeout(Duration timeout) {
    Checks.positive("probeTimeout", timeout);
    return new CircuitBreakerSpec(strategy, threshold, slowerThan, minCalls, window, buckets,
        openFor, probes, timeout);
  }

  /**
   * Builds the rule.
   *
   * @throws IllegalStateException if no strategy was chosen, or the slow-call threshold is
   *     missing or set for an error strategy
   * @throws IllegalArgumentException if the settings do not make a valid rule
   */
  CircuitBreakerRule toRule(String resource) {
    CircuitBreakerStrategy chosen = strategy;
    if (chosen == null) {
      throw new IllegalStateException("circuitBreaker needs a strategy: slowCallRatio(..), "
          + "errorRatio(..) or errorCount(..)");
    }
    if (chosen == CircuitBreakerStrategy.SLOW_CALL_RATIO && slowerThan == null) {
      throw new IllegalStateException("slowCallRatio needs slowerThan(..): how slow a slow call is");
    }
    if (chosen != CircuitBreakerStrategy.SLOW_CALL_RATIO && slowerThan != null) {
      throw new IllegalStateException("slowerThan applies to slowCallRatio, but the strategy is "
          + chosen);
    }
    return new CircuitBreakerRule(resource, chosen, threshold, slowerThan, minCalls, window, buckets,
        openFor, probes, probeTimeout);
  }

  private CircuitBreakerSpec withStrategy(CircuitBreakerStrategy chosen, double value) {
    if (strategy != null) {
      throw new IllegalStateException("a circuit breaker has one strategy, and this one is "
          + strategy + "; declare another circuitBreaker(..) for " + chosen);
    }
    return new CircuitBreakerSpec(chosen, value, slowerThan, minCalls, window, buckets, openFor,
        probes, probeTimeout);
  }

  private static double ratio(String field, double ratio) {
    if (!(ratio >= 0 && ratio <= 1)) {
      throw Checks.invalid(field, ratio, "must be a ratio in [0, 1]");
    }
    return ratio;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof CircuitBreakerSpec spec
        && spec.strategy == strategy
        && Double.compare(spec.threshold, threshold) == 0
        && Objects.equals(spec.slowerThan, slowerThan)
        && spec.minCalls == minCalls
        && spec.window.equals(window)
        && spec.buckets == buckets
        && spec.openFor.equals(openFor)
        && spec.probes == probes
        && Objects.equals(spec.probeTimeout, probeTimeout);
  }

  @Override
  public int hashCode() {
    return Objects.hash(strategy, threshold, slowerThan, minCalls, window, buckets, openFor,
        probes, probeTimeout);
  }

  @Override
  public String toString() {
    return "CircuitBreakerSpec[" + strategy + " " + threshold
        + (slowerThan == null ? "" : " slowerThan " + slowerThan)
        + ", minCalls " + minCalls + ", window " + window + "/" + buckets
        + ", openFor " + openFor + ", probes " + probes
        + (probeTimeout == null ? "" : " within " + probeTimeout) + "]";
  }
}
