package dev.guard;

import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step added a {@code perValue(..)} rule (calls per period for each
 * value of one argument): besides every {@link Guard} step and decorator, it offers the steps
 * that shape that rule, each returning a new {@code PerValueGuard} for the same rule.
 *
 * <pre>{@code
 * Function<String, Cart> load = Guard.of("loadCart")
 *     .perValue(0, 20).burst(10).except("vip-7", 500)
 *     .decorateFunction(userId -> carts.load(userId));
 * }</pre>
 *
 * <p>The shaping steps follow the rule step directly, as on {@link QpsGuard}. Immutable and
 * thread-safe like every guard.
 */
public final class PerValueGuard extends Guard
    implements ClusterSteps<PerValueGuard>, ValueSteps<PerValueGuard> {

  PerValueGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Lets each value bank {@code tokens} calls on top of its count: a value seen for the first
   * time, or idle long enough, may make {@code count + tokens} calls at once.
   *
   * @param tokens extra calls per value; {@code >= 0}
   * @return the new guard
   * @throws IllegalArgumentException if {@code tokens} is negative or too large, or the rule paces
   */
  public PerValueGuard burst(int tokens) {
    return next(rule -> rule.withBurst(tokens));
  }

  /**
   * Sets the token period: {@code count} calls per {@code period} instead of per second ({@code
   * perValue(0, 100).period(Duration.ofMinutes(1))}).
   *
   * @param period whole milliseconds, from 1 ms to one day
   * @return the new guard
   * @throws IllegalArgumentException if {@code period} is out of range
   */
  public PerValueGuard period(Duration period) {
    Objects.requireNonNull(period, "period");
    return next(rule -> rule.withPeriod(period));
  }

  /**
   * Paces each value's calls on their own, {@code period / count} apart; a call that would wait
   * longer than {@code maxQueueing} is refused at once, the others wait (through the engine's
   * time source) for their turn.
   *
   * @param maxQueueing the longest wait; zero or positive
   * @return the new guard, a {@link PacedPerValueGuard}: a paced rule takes no burst, quota or
   *     cluster mode
   * @throws IllegalArgumentException if {@code maxQueueing} is negative, or the rule bursts, has
   *     quotas or is a cluster rule
   */
  public PacedPerValueGuard pacing(Duration maxQueueing) {
    Objects.requireNonNull(maxQueueing, "maxQueueing");
    return new PacedPerValueGuard(List.of(part().mapLastRule(PerValueRule.class,
        rule -> rule.withPacing(maxQueueing))), engine());
  }

  /**
   * Adds a quota: besides its count per period, every value may make at most {@code limit} calls
   * per {@code period}; a call passes only when every limit of its value has room and then counts
   * in all of them, a refused call in none. Several quotas combine: {@code perValue(0, 100)
   * .period(Duration.ofMinutes(1)).quota(10_000, Duration.ofDays(1))} is 100 a minute and 10,000
   * a day for each value. The rule's {@link #except} thresholds replace only its count per period.
   *
   * @param limit calls per {@code period} for each value; from 0 to 16,777,215
   * @param period whole milliseconds, from 1 ms to one day
   * @return the new guard
   * @throws IllegalArgumentException if a value is out of range, the rule paces, or it has 8
   *     quotas already
   */
  public PerValueGuard quota(int limit, Duration period) {
    Objects.requireNonNull(period, "period");
    return next(rule -> rule.withQuota(limit, period));
  }

  @Override
  PerValueGuard restage(GuardPart changed) {
    return new PerValueGuard(List.of(changed), engine());
  }

  private PerValueGuard next(UnaryOperator<PerValueRule> change) {
    return restage(part().mapLastRule(PerValueRule.class, change));
  }
}
