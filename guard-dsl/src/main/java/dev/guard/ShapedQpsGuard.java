package dev.guard;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step made a {@code qps(..)} rule warm up or pace: it offers the
 * steps that still fit a shaped rule, each returning a new {@code ShapedQpsGuard} for the same
 * rule. A shaped rule is decided by this instance alone and counts per second only, so {@code
 * quota}, {@code clusterWide}, {@code cluster} and {@code perInstance} are not offered (writing
 * them does not compile).
 *
 * <pre>{@code
 * Guard create = Guard.of("createOrder")
 *     .qps(100).warmUp(Duration.ofSeconds(10)).pacing(Duration.ofMillis(200));
 * }</pre>
 *
 * <p>Immutable and thread-safe like every guard.
 */
public final class ShapedQpsGuard extends Guard
    implements OriginSteps<ShapedQpsGuard>, StrategySteps<ShapedQpsGuard> {

  ShapedQpsGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Makes the rule warm up, as {@link QpsGuard#warmUp(Duration)} describes.
   *
   * @param period the warm-up period; positive
   * @return the new guard
   * @throws IllegalArgumentException if {@code period} is not positive
   */
  public ShapedQpsGuard warmUp(Duration period) {
    return warmUp(period, FlowRule.WarmUp.DEFAULT_COLD_FACTOR);
  }

  /**
   * Makes the rule warm up, as {@link QpsGuard#warmUp(Duration, int)} describes.
   *
   * @param period the warm-up period; positive
   * @param coldFactor how much slower the cold rate is; greater than 1
   * @return the new guard
   * @throws IllegalArgumentException if a value is invalid
   */
  public ShapedQpsGuard warmUp(Duration period, int coldFactor) {
    Objects.requireNonNull(period, "period");
    return next(rule -> rule.withWarmUp(period, coldFactor));
  }

  /**
   * Makes the rule pace calls, as {@link QpsGuard#pacing} describes.
   *
   * @param maxQueueing the longest wait; zero or positive
   * @return the new guard
   * @throws IllegalArgumentException if {@code maxQueueing} is negative
   */
  public ShapedQpsGuard pacing(Duration maxQueueing) {
    Objects.requireNonNull(maxQueueing, "maxQueueing");
    return next(rule -> rule.withMaxQueueingTime(maxQueueing)
        .withShaping(FlowRule.Shaping.PACING));
  }

  @Override
  ShapedQpsGuard restage(GuardPart changed) {
    return new ShapedQpsGuard(List.of(changed), engine());
  }

  private ShapedQpsGuard next(UnaryOperator<FlowRule> change) {
    return restage(part().mapLastRule(FlowRule.class, change));
  }
}
