package dev.guard;

import dev.guard.api.rule.ClusterMode;
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
public final class PerValueGuard extends Guard {

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
   * Gives one value its own threshold, as {@link PerValueConcurrencyGuard#except} describes.
   *
   * @param value the value
   * @param threshold its own calls per period; {@code >= 0} (0 refuses it)
   * @return the new guard
   * @throws IllegalArgumentException if {@code threshold} is negative, or {@code value} is not of
   *     the declared {@link #valueType}
   */
  public PerValueGuard except(Object value, int threshold) {
    Objects.requireNonNull(value, "value");
    return next(rule -> rule.withException(value, threshold));
  }

  /**
   * Declares the runtime type of the values, as {@link PerValueConcurrencyGuard#valueType}
   * describes.
   *
   * @param type the values' type
   * @return the new guard
   * @throws IllegalArgumentException if an exception value is not of that type
   */
  public PerValueGuard valueType(Class<?> type) {
    Objects.requireNonNull(type, "type");
    return next(rule -> rule.withValueType(type));
  }

  /**
   * Bounds how many values the engine remembers, as {@link PerValueConcurrencyGuard#maxValues}
   * describes.
   *
   * @param max the bound; {@code >= 2}
   * @return the new guard
   * @throws IllegalArgumentException if {@code max} is below 2
   */
  public PerValueGuard maxValues(int max) {
    return next(rule -> rule.withMaxValues(max));
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

  /**
   * Shares each value's budget (its count per period with burst, its exception threshold, every
   * quota) between every instance through the engine's token service, under the flow id {@code
   * resource[argumentIndex]}; when the service cannot decide, each instance checks the rule
   * locally. See docs/CLUSTER.md.
   *
   * @return the new guard
   * @throws IllegalArgumentException if the rule paces
   */
  public PerValueGuard clusterWide() {
    return next(rule -> rule.withCluster(
        ClusterMode.global(rule.resource() + "[" + rule.argumentIndex() + "]")));
  }

  /**
   * Shares each value's budget through the engine's token service with a cluster mode of your
   * own: its flow id, and whether a failure checks locally ({@code ClusterMode.global("api-keys")
   * .withFallbackToLocal(false)}).
   *
   * @param mode a {@link ClusterMode.Threshold#GLOBAL} mode with the default window
   * @return the new guard
   * @throws IllegalArgumentException if the rule paces, or the mode is per instance or sets a
   *     window, buckets or lease time
   */
  public PerValueGuard cluster(ClusterMode mode) {
    Objects.requireNonNull(mode, "mode");
    return next(rule -> rule.withCluster(mode));
  }

  private PerValueGuard next(UnaryOperator<PerValueRule> change) {
    return new PerValueGuard(List.of(part().mapLastRule(PerValueRule.class, change)), engine());
  }
}
