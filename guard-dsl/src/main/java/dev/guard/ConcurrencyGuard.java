package dev.guard;

import dev.guard.engine.GuardEngine;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step added a {@code concurrency(..)} rule: besides every {@link
 * Guard} step and decorator, it offers the steps that scope that rule. A concurrency rule has no
 * rate, so it offers no warm-up and no pacing.
 *
 * <pre>{@code
 * Guard export = Guard.of("export").concurrency(4).clusterWide();
 * }</pre>
 *
 * <p>The scoping steps follow the rule step directly, as on {@link QpsGuard}. Immutable and
 * thread-safe like every guard.
 */
public final class ConcurrencyGuard extends Guard
    implements OriginSteps<ConcurrencyGuard>, StrategySteps<ConcurrencyGuard>,
        ClusterSteps<ConcurrencyGuard>, PerInstanceSteps<ConcurrencyGuard> {

  ConcurrencyGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  @Override
  ConcurrencyGuard restage(GuardPart changed) {
    return new ConcurrencyGuard(List.of(changed), engine());
  }
}
