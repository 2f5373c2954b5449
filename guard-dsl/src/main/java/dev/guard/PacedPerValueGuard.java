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
public final class PacedPerValueGuard extends Guard {

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

  /**
   * Gives one value its own threshold, as {@link PerValueConcurrencyGuard#except} describes.
   *
   * @param value the value
   * @param threshold its own calls per period; {@code >= 0} (0 refuses it)
   * @return the new guard
   * @throws IllegalArgumentException if {@code threshold} is negative, or {@code value} is not of
   *     the declared value type
   */
  public PacedPerValueGuard except(Object value, int threshold) {
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
  public PacedPerValueGuard valueType(Class<?> type) {
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
  public PacedPerValueGuard maxValues(int max) {
    return next(rule -> rule.withMaxValues(max));
  }

  private PacedPerValueGuard next(UnaryOperator<PerValueRule> change) {
    return new PacedPerValueGuard(
        List.of(part().mapLastRule(PerValueRule.class, change)), engine());
  }
}
