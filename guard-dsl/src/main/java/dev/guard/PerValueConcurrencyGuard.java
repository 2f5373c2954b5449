package dev.guard;

import dev.guard.engine.GuardEngine;
import java.util.List;
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
public final class PerValueConcurrencyGuard extends Guard
    implements ValueSteps<PerValueConcurrencyGuard> {

  PerValueConcurrencyGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  @Override
  PerValueConcurrencyGuard restage(GuardPart changed) {
    return new PerValueConcurrencyGuard(List.of(changed), engine());
  }
}
