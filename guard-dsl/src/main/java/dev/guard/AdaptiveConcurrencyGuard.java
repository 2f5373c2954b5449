package dev.guard;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step added an {@code adaptiveConcurrency()} limit: besides every
 * {@link Guard} step and decorator, it offers the limit's settings, each returning a new stage
 * for the same limit.
 *
 * <pre>{@code
 * Guard inventory = Guard.of("inventory")
 *     .adaptiveConcurrency().limits(10, 2, 200).aimd().slowerThan(Duration.ofMillis(250));
 * }</pre>
 *
 * <p>Defaults: the gradient algorithm, limits 20 (initial), 1 (minimum) and 1000 (maximum), a new
 * limit every 100 ms. docs/BEHAVIOUR.md, "Adaptive concurrency", has the formulas. The settings
 * follow the limit step directly, as on {@link QpsGuard}. Immutable and thread-safe like every
 * guard.
 */
public final class AdaptiveConcurrencyGuard extends Guard {

  AdaptiveConcurrencyGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Sets the limit's bounds (defaults 20, 1 and 1000).
   *
   * @param initial the limit before the first window ends
   * @param min the lowest the limit goes; {@code >= 1}
   * @param max the highest the limit goes
   * @return the new guard
   * @throws IllegalArgumentException unless {@code 1 <= min <= initial <= max}
   */
  public AdaptiveConcurrencyGuard limits(int initial, int min, int max) {
    return next(rule -> rule.withLimits(initial, min, max));
  }

  /**
   * Moves the limit with the gradient algorithm (the default): by the ratio of the best average
   * response time seen to the window's.
   *
   * @return the new guard
   */
  public AdaptiveConcurrencyGuard gradient() {
    return next(rule -> rule.withAlgorithm(AdaptiveConcurrencyRule.Algorithm.GRADIENT));
  }

  /**
   * Moves the limit by additive increase and multiplicative decrease: one more per window without
   * failures, a tenth less after a window with failures (or a slow average, see {@link
   * #slowerThan}).
   *
   * @return the new guard
   */
  public AdaptiveConcurrencyGuard aimd() {
    return next(rule -> rule.withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD));
  }

  /**
   * For {@link #aimd()}: a window whose calls took longer than {@code average} on average counts
   * as overloaded, like a window with failures (default {@link Duration#ZERO}: failures only).
   *
   * @param average the bound; whole milliseconds, not negative
   * @return the new guard
   * @throws IllegalArgumentException if the bound is invalid
   */
  public AdaptiveConcurrencyGuard slowerThan(Duration average) {
    Objects.requireNonNull(average, "slowerThan");
    return next(rule -> rule.withSlowerThan(average));
  }

  /**
   * Sets how often the limit is recomputed from the calls that ended meanwhile (default 100 ms).
   *
   * @param length the window; positive whole milliseconds
   * @return the new guard
   * @throws IllegalArgumentException if the window is invalid
   */
  public AdaptiveConcurrencyGuard window(Duration length) {
    Objects.requireNonNull(length, "window");
    return next(rule -> rule.withWindow(length));
  }

  /**
   * Gives the calls of one origin a share of the limit (for example 0.9 for live traffic, 0.1 for
   * batch jobs); origins not given a share split what the shares leave. A share that its origin
   * leaves idle is lent to the others; while its origin asks for places, its unused part is kept
   * for it (docs/BEHAVIOUR.md, "Capacity shares").
   *
   * <pre>{@code
   * Guard.of("search").adaptiveConcurrency().share("live", 0.9).share("batch", 0.1);
   * }</pre>
   *
   * @param origin the caller origin (from the call's context or {@link Guard#origin})
   * @param fraction its share, in {@code (0, 1]}; all shares sum to at most 1
   * @return the new guard
   * @throws IllegalArgumentException if the origin is blank, the fraction out of range or the
   *     shares would sum to more than 1
   */
  public AdaptiveConcurrencyGuard share(String origin, double fraction) {
    Objects.requireNonNull(origin, "origin");
    return next(rule -> rule.withShare(origin, fraction));
  }

  private AdaptiveConcurrencyGuard next(UnaryOperator<AdaptiveConcurrencyRule> change) {
    return new AdaptiveConcurrencyGuard(
        List.of(part().mapLastRule(AdaptiveConcurrencyRule.class, change)), engine());
  }
}
