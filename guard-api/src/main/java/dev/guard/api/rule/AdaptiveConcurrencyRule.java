package dev.guard.api.rule;

import dev.guard.api.internal.Checks;
import dev.guard.api.internal.RuleLimits;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable adaptive concurrency limit for one resource: at most {@code limit} calls run at
 * once, and the engine moves the limit between {@code minLimit} and {@code maxLimit} from what the
 * calls show — their response times against the best seen, and their failures. It starts at
 * {@code initialLimit} and is recomputed once per {@code window} from the calls that ended in it.
 * docs/BEHAVIOUR.md, "Adaptive concurrency", has the formulas of both algorithms.
 *
 * <pre>{@code
 * AdaptiveConcurrencyRule rule = AdaptiveConcurrencyRule.of("inventory")
 *     .withLimits(10, 2, 200)
 *     .withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD)
 *     .withSlowerThan(Duration.ofMillis(250));
 * }</pre>
 *
 * <p>A resource has at most one adaptive concurrency rule. A refused call gets a {@code
 * RefusedException.AdaptiveConcurrency} that reads the limit in force.
 *
 * @param resource the protected resource; not blank
 * @param algorithm how the limit moves
 * @param initialLimit the limit before the first window ends; in {@code [minLimit, maxLimit]}
 * @param minLimit the lowest the limit goes; {@code >= 1}
 * @param maxLimit the highest the limit goes; at most {@link RuleLimits#MAX_COUNT}
 * @param window how often the limit is recomputed; positive whole milliseconds, at most one day
 * @param slowerThan for {@link Algorithm#AIMD}: a window whose average response time is greater
 *     than this counts as overloaded, like one with a failure; {@link Duration#ZERO} counts
 *     failures only. Whole milliseconds, at most one day; the gradient algorithm ignores it
 * @param shares shares of the limit per caller origin, in declaration order: origin name to a
 *     fraction in {@code (0, 1]}, the fractions summing to at most 1; origins not listed share the
 *     rest as one group. Empty (the default) for no shares. docs/BEHAVIOUR.md, "Capacity shares",
 *     says how shares borrow from each other
 */
public record AdaptiveConcurrencyRule(
    String resource,
    Algorithm algorithm,
    int initialLimit,
    int minLimit,
    int maxLimit,
    Duration window,
    Duration slowerThan,
    Map<String, Double> shares)
    implements Rule {

  /** The most shares one rule has: {@value}. */
  public static final int MAX_SHARES = 16;

  /** The limit a new rule starts from: {@value}. */
  public static final int DEFAULT_INITIAL_LIMIT = 20;

  /** The lowest limit of a new rule: {@value}. */
  public static final int DEFAULT_MIN_LIMIT = 1;

  /** The highest limit of a new rule: {@value}. */
  public static final int DEFAULT_MAX_LIMIT = 1000;

  /** How often a new rule recomputes its limit: 100 ms. */
  public static final Duration DEFAULT_WINDOW = Duration.ofMillis(100);

  /** How the limit of an {@link AdaptiveConcurrencyRule} moves from window to window. */
  public enum Algorithm {
    /**
     * From the gradient of the best average response time seen to this window's: the limit
     * shrinks in proportion as calls queue, and grows by a small headroom while they do not.
     */
    GRADIENT,
    /**
     * Additive increase, multiplicative decrease: one more while the window shows no failure (and
     * no slow average, with {@code slowerThan}), a tenth less when it does.
     */
    AIMD
  }

  /**
   * Validates the fields.
   *
   * @param resource the protected resource
   * @param algorithm how the limit moves
   * @param initialLimit the starting limit
   * @param minLimit the lowest limit
   * @param maxLimit the highest limit
   * @param window how often the limit is recomputed
   * @param slowerThan the slow-window bound of AIMD, or zero
   * @param shares the shares per origin; copied, order kept
   * @throws IllegalArgumentException if the resource is blank, a limit is out of range or out of
   *     order, or a duration is negative, zero (window), fractional in milliseconds or too long
   * @throws NullPointerException if a field is null
   */
  public AdaptiveConcurrencyRule {
    resource = Checks.notBlank("resource", resource);
    Objects.requireNonNull(algorithm, "algorithm");
    Checks.positive("minLimit", minLimit);
    Checks.atMost("maxLimit", maxLimit, (int) RuleLimits.MAX_COUNT);
    if (maxLimit < minLimit) {
      throw Checks.invalid("maxLimit", maxLimit, "must be >= minLimit (" + minLimit + ")");
    }
    if (initialLimit < minLimit || initialLimit > maxLimit) {
      throw Checks.invalid("initialLimit", initialLimit,
          "must be in [minLimit, maxLimit] = [" + minLimit + ", " + maxLimit + "]");
    }
    Checks.wholeMillis("window", Checks.positive("window", window));
    Checks.atMost("window", window, RuleLimits.MAX_DURATION);
    Checks.wholeMillis("slowerThan", Checks.notNegative("slowerThan", slowerThan));
    Checks.atMost("slowerThan", slowerThan, RuleLimits.MAX_DURATION);
    shares = checkedShares(shares);
  }

  private static Map<String, Double> checkedShares(Map<String, Double> shares) {
    Objects.requireNonNull(shares, "shares");
    if (shares.size() > MAX_SHARES) {
      throw Checks.invalid("shares", shares.size() + " shares", "must be at most " + MAX_SHARES);
    }
    Map<String, Double> copy = new LinkedHashMap<>();
    double sum = 0;
    for (Map.Entry<String, Double> share : shares.entrySet()) {
      String origin = Checks.notBlank("shares origin", share.getKey());
      Double fraction = Objects.requireNonNull(share.getValue(), "shares." + origin);
      if (!(fraction > 0 && fraction <= 1)) {
        throw Checks.invalid("shares." + origin, fraction, "must be in (0, 1]");
      }
      sum += fraction;
      copy.put(origin, fraction);
    }
    if (sum > 1 + 1e-9) {
      throw Checks.invalid("shares", copy, "must sum to at most 1");
    }
    return Collections.unmodifiableMap(copy);
  }

  /**
   * Creates a gradient rule with the defaults: limits 20 (initial), 1 (minimum) and 1000
   * (maximum), recomputed every 100 ms.
   *
   * @param resource the protected resource
   * @return the rule
   * @throws IllegalArgumentException if the resource is blank
   */
  public static AdaptiveConcurrencyRule of(String resource) {
    return new AdaptiveConcurrencyRule(resource, Algorithm.GRADIENT, DEFAULT_INITIAL_LIMIT,
        DEFAULT_MIN_LIMIT, DEFAULT_MAX_LIMIT, DEFAULT_WINDOW, Duration.ZERO, Map.of());
  }

  /**
   * Returns this rule with another algorithm.
   *
   * @param newAlgorithm the algorithm
   * @return the new rule
   */
  public AdaptiveConcurrencyRule withAlgorithm(Algorithm newAlgorithm) {
    return new AdaptiveConcurrencyRule(
        resource, newAlgorithm, initialLimit, minLimit, maxLimit, window, slowerThan, shares);
  }

  /**
   * Returns this rule with other bounds.
   *
   * @param initial the starting limit
   * @param min the lowest limit
   * @param max the highest limit
   * @return the new rule
   * @throws IllegalArgumentException if {@code 1 <= min <= initial <= max} does not hold
   */
  public AdaptiveConcurrencyRule withLimits(int initial, int min, int max) {
    return new AdaptiveConcurrencyRule(
        resource, algorithm, initial, min, max, window, slowerThan, shares);
  }

  /**
   * Returns this rule recomputing its limit every {@code newWindow}.
   *
   * @param newWindow the window; positive whole milliseconds
   * @return the new rule
   * @throws IllegalArgumentException if the window is invalid
   */
  public AdaptiveConcurrencyRule withWindow(Duration newWindow) {
    return new AdaptiveConcurrencyRule(
        resource, algorithm, initialLimit, minLimit, maxLimit, newWindow, slowerThan, shares);
  }

  /**
   * Returns this rule with another slow-window bound for {@link Algorithm#AIMD}.
   *
   * @param newSlowerThan the bound; {@link Duration#ZERO} for failures only
   * @return the new rule
   * @throws IllegalArgumentException if the bound is invalid
   */
  public AdaptiveConcurrencyRule withSlowerThan(Duration newSlowerThan) {
    return new AdaptiveConcurrencyRule(
        resource, algorithm, initialLimit, minLimit, maxLimit, window, newSlowerThan, shares);
  }

  /**
   * Returns this rule with one more share of the limit, for the calls of one origin (or another
   * fraction for an origin that has one).
   *
   * @param origin the caller origin; not blank
   * @param fraction its share of the limit, in {@code (0, 1]}
   * @return the new rule
   * @throws IllegalArgumentException if the origin is blank, the fraction out of range, the
   *     fractions would sum to more than 1, or the rule would have more than {@value #MAX_SHARES}
   */
  public AdaptiveConcurrencyRule withShare(String origin, double fraction) {
    Map<String, Double> more = new LinkedHashMap<>(shares);
    more.put(Checks.notBlank("shares origin", origin), fraction);
    return new AdaptiveConcurrencyRule(
        resource, algorithm, initialLimit, minLimit, maxLimit, window, slowerThan, more);
  }
}
