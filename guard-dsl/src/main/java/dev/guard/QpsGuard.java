package dev.guard;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step added a {@code qps(..)} rule: besides every {@link Guard} step
 * and decorator, it offers the steps that shape and scope that rule, each returning a new {@code
 * QpsGuard} for the same rule.
 *
 * <pre>{@code
 * Guard create = Guard.of("createOrder")
 *     .qps(100).warmUp(Duration.ofSeconds(10)).fromOrigin("mobile")
 *     .errorRatio(0.5);
 * }</pre>
 *
 * <p>The shaping steps follow the rule step directly: any other step returns a plain {@link
 * Guard} (or another stage), after which the rule can no longer be shaped, so a step can never
 * change a rule it was not written next to. Immutable and thread-safe like every guard.
 */
public final class QpsGuard extends Guard
    implements OriginSteps<QpsGuard>, StrategySteps<QpsGuard>, ClusterSteps<QpsGuard>,
        PerInstanceSteps<QpsGuard> {

  QpsGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Makes the rule warm up over {@code period} with the default cold factor 3: a cold resource
   * admits {@code qps / 3} per second, climbing to {@code qps}.
   *
   * @param period the warm-up period; positive
   * @return the new guard, a {@link ShapedQpsGuard}: a shaped rule takes no quota or cluster mode
   * @throws IllegalArgumentException if {@code period} is not positive, or the rule is a cluster
   *     rule
   */
  public ShapedQpsGuard warmUp(Duration period) {
    return warmUp(period, FlowRule.WarmUp.DEFAULT_COLD_FACTOR);
  }

  /**
   * Makes the rule warm up over {@code period}: a cold resource admits {@code qps / coldFactor}
   * per second, climbing to {@code qps} as traffic flows.
   *
   * @param period the warm-up period; positive
   * @param coldFactor how much slower the cold rate is; greater than 1
   * @return the new guard, a {@link ShapedQpsGuard}
   * @throws IllegalArgumentException if a value is invalid, or the rule is a cluster rule
   */
  public ShapedQpsGuard warmUp(Duration period, int coldFactor) {
    Objects.requireNonNull(period, "period");
    return new ShapedQpsGuard(List.of(part().mapLastRule(FlowRule.class,
        rule -> rule.withWarmUp(period, coldFactor))), engine());
  }

  /**
   * Makes the rule pace calls {@code 1 / qps} seconds apart. A call that would wait longer than
   * {@code maxQueueing} is refused at once; the others wait (through the engine's time source)
   * for their turn. {@link Duration#ZERO} means strict spacing without waiting. Combined with
   * {@link #warmUp}, the spacing follows the warm-up rate.
   *
   * @param maxQueueing the longest wait; zero or positive
   * @return the new guard, a {@link ShapedQpsGuard}
   * @throws IllegalArgumentException if {@code maxQueueing} is negative, or the rule is a
   *     cluster rule
   */
  public ShapedQpsGuard pacing(Duration maxQueueing) {
    Objects.requireNonNull(maxQueueing, "maxQueueing");
    return new ShapedQpsGuard(List.of(part().mapLastRule(FlowRule.class,
        rule -> rule.withMaxQueueingTime(maxQueueing).withShaping(FlowRule.Shaping.PACING))),
        engine());
  }

  /**
   * Adds a quota to the rule: besides its calls per second, the calls it applies to may number at
   * most {@code limit} per {@code period}, counted in fixed windows (docs/BEHAVIOUR.md,
   * "Quotas"). A call passes only when the rule's rate and every quota admit it, and then counts
   * in all of them; a refused call counts in none. Several quotas combine: {@code qps(50)
   * .quota(1_000, Duration.ofMinutes(1)).quota(50_000, Duration.ofDays(1))}.
   *
   * @param limit calls per {@code period}; from 0 to 16,777,215
   * @param period whole milliseconds, from 1 ms to one day
   * @return the new guard, a {@link QuotaGuard}: a rule with quotas neither warms up, paces nor
   *     measures another resource
   * @throws IllegalArgumentException if a value is out of range, or the rule measures another
   *     resource or an entrance, or is a per-instance cluster rule
   */
  public QuotaGuard quota(int limit, Duration period) {
    Objects.requireNonNull(period, "period");
    return new QuotaGuard(List.of(part().mapLastRule(FlowRule.class,
        rule -> rule.withQuota(limit, period))), engine());
  }

  @Override
  QpsGuard restage(GuardPart changed) {
    return new QpsGuard(List.of(changed), engine());
  }
}
