package dev.guard;

import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step made a {@code perValue(..)} rule pace each value's calls: it
 * offers the steps that still fit a paced rule, each returning a new {@code PacedPerValueGuard}
 * for the same rule. A paced rule has no bucket to bank calls in or to share, so {@code burst},
 * {@code quota}, {@code clusterWide} and {@code cluster} are not offered (writing them does not
 * compile).
 *
 * <pre>{@code
 * Guard export = Guard.of("export")
 *     .perValue(0, 5).pacing(Duration.ofSeconds(1)).except("batch", 50);
 * }</pre>
 *
 * <p>Immutable and thread-safe like every guard.
 */
public final class PacedPerValueGuard extends Guard
    implements ValueSteps<PacedPerValueGuard> {

  PacedPerValueGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Sets the period the count is spread over, as {@link PerValueGuard#period} describes.
   *
   * @param period whole milliseconds, from 1 ms to one day
   * @return the new guard
   * @throws IllegalArgumentException if {@code period} is out of range
   */
  public PacedPerValueGuard period(Duration period) {
    Objects.requireNonNull(period, "period");
    return next(rule -> rule.withPeriod(period));
  }

  /**
   * Sets another longest wait, as {@link PerValueGuard#pacing} describes.
   *
   * @param maxQueueing the longest wait; zero or positive
   * @return the new guard
   * @throws IllegalArgumentException if {@code maxQueueing} is negative
   */
  public PacedPerValueGuard pacing(Duration maxQueueing) {
    Objects.requireNonNull(maxQueueing, "maxQueueing");
    return next(rule -> rule.withPacing(maxQueueing));
  }

  @Override
  PacedPerValueGuard restage(GuardPart changed) {
    return new PacedPerValueGuard(List.of(changed), engine());
  }

  private PacedPerValueGuard next(UnaryOperator<PerValueRule> change) {
    return restage(part().mapLastRule(PerValueRule.class, change));
  }
}
