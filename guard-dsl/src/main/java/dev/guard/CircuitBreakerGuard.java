package dev.guard;

import dev.guard.api.internal.Checks;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step added a circuit breaker ({@code slowCallRatio}, {@code
 * errorRatio} or {@code errorCount}): besides every {@link Guard} step and decorator, it offers
 * the breaker's settings, each returning a new {@code CircuitBreakerGuard} for the same breaker.
 *
 * <pre>{@code
 * Guard inventory = Guard.of("inventory")
 *     .qps(200)
 *     .slowCallRatio(0.5, Duration.ofMillis(300))
 *         .minCalls(10).window(Duration.ofSeconds(10)).openFor(Duration.ofSeconds(5));
 * }</pre>
 *
 * <p>Defaults: at least 5 calls, a sliding window of 1 s in 10 buckets, open for 10 s, one probe
 * that must decide within the open duration. The exact behaviour is described on {@link
 * CircuitBreakerRule} and in the project's {@code docs/BEHAVIOUR.md}. The settings follow the breaker
 * step directly, as on {@link QpsGuard}. Immutable and thread-safe like every guard.
 */
public final class CircuitBreakerGuard extends Guard {

  CircuitBreakerGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Sets the fewest completed calls in the window before the breaker may open (default 5).
   *
   * @param calls the minimum; {@code > 0}
   * @return the new guard
   * @throws IllegalArgumentException if {@code calls} is not positive
   */
  public CircuitBreakerGuard minCalls(int calls) {
    Checks.positive("minCalls", calls);
    return next(rule -> rule.withMinCalls(calls));
  }

  /**
   * Sets the length of the sliding window (default 1 s), keeping its bucket count (default 10):
   * it must divide into whole milliseconds per bucket. Use {@link #window(Duration, int)} for
   * another bucket count.
   *
   * @param length the window length; positive whole milliseconds
   * @return the new guard
   * @throws IllegalArgumentException if {@code length} is invalid
   */
  public CircuitBreakerGuard window(Duration length) {
    Checks.positive("window", length);
    return next(rule -> rule.withStatWindow(length, rule.buckets()));
  }

  /**
   * Sets the window: its length and how many buckets it slides by. One bucket gives a tumbling
   * window, which forgets every call at each multiple of its length; more buckets keep a burst of
   * failures that straddles a bucket edge together.
   *
   * @param length the window length; positive whole milliseconds
   * @param buckets the buckets; {@code > 0}, dividing {@code length} into whole milliseconds
   * @return the new guard
   * @throws IllegalArgumentException if a value is invalid
   */
  public CircuitBreakerGuard window(Duration length, int buckets) {
    Checks.positive("window", length);
    Checks.positive("buckets", buckets);
    return next(rule -> rule.withStatWindow(length, buckets));
  }

  /**
   * Sets how long the opened breaker refuses calls before it lets a probe through (default 10 s).
   *
   * @param duration the open duration; positive whole milliseconds
   * @return the new guard
   * @throws IllegalArgumentException if {@code duration} is invalid
   */
  public CircuitBreakerGuard openFor(Duration duration) {
    Checks.positive("openFor", duration);
    return next(rule -> rule.withOpenFor(duration));
  }

  /**
   * Sets how many probe calls the half-open breaker lets through (default 1); it closes when all
   * of them succeed and reopens at the first that fails.
   *
   * @param count the probes; {@code > 0}
   * @return the new guard
   * @throws IllegalArgumentException if {@code count} is not positive
   */
  public CircuitBreakerGuard probes(int count) {
    Checks.positive("probes", count);
    return next(rule -> rule.withProbes(count, rule.probeTimeout()));
  }

  /**
   * Sets how long the half-open breaker waits for its probes to decide (default: the open
   * duration); a half-open period still undecided then counts as a failed probe, so a probe that
   * never returns cannot keep the breaker half-open.
   *
   * @param timeout the bound; positive whole milliseconds
   * @return the new guard
   * @throws IllegalArgumentException if {@code timeout} is invalid
   */
  public CircuitBreakerGuard probeTimeout(Duration timeout) {
    Checks.positive("probeTimeout", timeout);
    return next(rule -> rule.withProbes(rule.probes(), timeout));
  }

  private CircuitBreakerGuard next(UnaryOperator<CircuitBreakerRule> change) {
    return new CircuitBreakerGuard(
        List.of(part().mapLastRule(CircuitBreakerRule.class, change)), engine());
  }
}
