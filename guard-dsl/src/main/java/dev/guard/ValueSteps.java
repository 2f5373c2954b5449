package dev.guard;

import dev.guard.api.rule.PerValueRule;
import java.util.Objects;

/**
 * The steps about the values of a per-value rule, shared by {@link PerValueGuard}, {@link
 * PacedPerValueGuard} and {@link PerValueConcurrencyGuard}.
 *
 * <pre>{@code
 * PerValueGuard carts = Guard.of("loadCart")
 *     .perValue(0, 20).valueType(String.class).except("vip-7", 500).maxValues(10_000);
 * }</pre>
 *
 * @param <S> the stage, which the steps return
 */
public sealed interface ValueSteps<S extends ValueSteps<S>>
    permits PerValueGuard, PacedPerValueGuard, PerValueConcurrencyGuard {

  /**
   * Gives one value its own threshold: calls per period for {@code perValue}, calls at once for
   * {@code perValueConcurrency}. Values match with {@code equals}, so {@code value} must have the
   * argument's runtime type: {@code except(7, 50)} never matches a {@code Long} argument {@code
   * 7L}; declare {@link #valueType} to have such a mismatch rejected.
   *
   * @param value the value
   * @param threshold its own threshold; {@code >= 0} (0 refuses it)
   * @return the new guard, of the same stage
   * @throws IllegalArgumentException if {@code threshold} is negative, or {@code value} is not of
   *     the declared {@link #valueType}
   */
  default S except(Object value, int threshold) {
    Objects.requireNonNull(value, "value");
    return Stages.next(this, PerValueRule.class, rule -> rule.withException(value, threshold));
  }

  /**
   * Declares the runtime type of the values, so that an {@link #except} value of another type,
   * which could never match, is rejected.
   *
   * @param type the values' type
   * @return the new guard, of the same stage
   * @throws IllegalArgumentException if an exception value is not of that type
   */
  default S valueType(Class<?> type) {
    Objects.requireNonNull(type, "type");
    return Stages.next(this, PerValueRule.class, rule -> rule.withValueType(type));
  }

  /**
   * Bounds how many values the engine remembers (default 4000 per started second of the period,
   * at most 200,000). When a new value does not fit, the values used least recently are forgotten
   * and start over as if never seen; the engine counts them ({@code
   * GuardEngine.overflows(Cap.VALUES)}).
   *
   * @param max the bound; {@code >= 2}
   * @return the new guard, of the same stage
   * @throws IllegalArgumentException if {@code max} is below 2
   */
  default S maxValues(int max) {
    return Stages.next(this, PerValueRule.class, rule -> rule.withMaxValues(max));
  }
}
