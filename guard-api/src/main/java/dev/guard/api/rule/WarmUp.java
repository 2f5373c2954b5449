package dev.guard.api.rule;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.internal.Checks;
import java.time.Duration;

/**
 * The warm-up of a QPS flow rule: a cold resource admits {@code count / coldFactor} calls per
 * second, climbing to {@code count} over about {@code period} of traffic, and cools down again
 * when traffic stays below the cold rate.
 *
 * <pre>{@code
 * FlowRule rule = FlowRule.qps("createOrder", 100).withWarmUp(WarmUp.of(Duration.ofSeconds(10)));
 * }</pre>
 *
 * @param period how long full traffic takes to warm a cold resource; positive, at most one day
 * @param coldFactor the cold rate is {@code count / coldFactor}; from 2 to 100
 */
public record WarmUp(Duration period, int coldFactor) {

  /** The default cold factor: the cold rate is a third of the count. */
  public static final int DEFAULT_COLD_FACTOR = 3;

  /**
   * Validates the fields.
   *
   * @param period the warm-up period
   * @param coldFactor the cold factor
   * @throws IllegalArgumentException if a field is invalid; the message names it and its value
   */
  public WarmUp {
    Checks.positive("warmUpPeriod", period);
    Checks.atMost("warmUpPeriod", period, RuleLimits.MAX_DURATION);
    if (coldFactor <= 1) {
      throw Checks.invalid("coldFactor", coldFactor, "must be > 1");
    }
    Checks.atMost("coldFactor", coldFactor, RuleLimits.MAX_COLD_FACTOR);
  }

  /**
   * Creates a warm-up with the default cold factor 3.
   *
   * @param period the warm-up period; positive
   * @return the warm-up
   */
  public static WarmUp of(Duration period) {
    return new WarmUp(period, DEFAULT_COLD_FACTOR);
  }
}
