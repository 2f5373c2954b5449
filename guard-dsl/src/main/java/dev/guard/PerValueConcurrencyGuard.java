package dev.guard;

import dev.guard.api.rule.PerValueRule;
import dev.guard.engine.GuardEngine;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step added a {@code perValueConcurrency(..)} rule (calls running at
 * once for each value of one argument): besides every {@link Guard} step and decorator, it offers
 * the steps that apply to that rule. It has no rate, so it offers no burst, period or pacing.
 *
 * <pre>{@code
 * Function<Tenant, Report> export = Guard.of("export")
 *     .perValueConcurrency(0, 2).except("big-tenant", 8)
 *     .decorateKeyedFunction(Tenant::id, tenant -> reports.export(tenant));
 * }</pre>
 *
 * <p>The steps follow the rule step directly, as on {@link QpsGuard}. Immutable and thread-safe
 * like every guard.
 */
public final class PerValueConcurrencyGuard extends Guard {

  PerValueConcurrencyGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Gives one value its own threshold. Values match with {@code equals}, so {@code value} must
   * have the argument's runtime type: {@code except(7, 50)} never matches a {@code Long} argument
   * {@code 7L}; declare {@link #valueType} to have such a mismatch rejected.
   *
   * @param value the value
   * @param threshold its own threshold; {@code >= 0} (0 refuses it)
   * @return the new guard
   * @throws IllegalArgumentException if {@code threshold} is negative, or {@code value} is not of
   *     the declared {@link #valueType}
   */
  public PerValueConcurrencyGuard except(Object value, int threshold) {
    Objects.requireNonNull(value, "value");
    return next(rule -> rule.withException(value, threshold));
  }

  /**
   * Declares the runtime type of the values, so that an {@link #except} value of another type,
   * which could never match, is rejected.
   *
   * @param type the values' type
   * @return the new guard
   * @throws IllegalArgumentException if an exception value is not of that type
   */
  public PerValueConcurrencyGuard valueType(Class<?> type) {
    Objects.requireNonNull(type, "type");
    return next(rule -> rule.withValueType(type));
  }

  /**
   * Bounds how many values the engine remembers (default 4000 per started second of the period,
   * at most 200,000). When a new value does not fit, the values used least recently are forgotten
   * and start over as if never seen; the engine counts them ({@code
   * GuardEngine.overflows(Cap.VALUES)}).
   *
   * @param max the bound; {@code >= 2}
   * @return the new guard
   * @throws IllegalArgumentException if {@code max} is below 2
   */
  public PerValueConcurrencyGuard maxValues(int max) {
    return next(rule -> rule.withMaxValues(max));
  }

  private PerValueConcurrencyGuard next(UnaryOperator<PerValueRule> change) {
    return new PerValueConcurrencyGuard(
        List.of(part().mapLastRule(PerValueRule.class, change)), engine());
  }
}
