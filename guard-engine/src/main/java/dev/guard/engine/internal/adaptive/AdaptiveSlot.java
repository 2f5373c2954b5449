package dev.guard.engine.internal.adaptive;

import dev.guard.api.RefusedException;
import dev.guard.engine.internal.chain.Call;
import dev.guard.engine.internal.chain.Slot;
import org.jspecify.annotations.Nullable;

/**
 * Admits a call while fewer calls than the adaptive limit are in flight, and feeds the call's
 * outcome to the limit at exit. An admitted call costs one compare-and-set at entry and a few
 * atomic additions at exit; a refused one returns the rule's one refusal instance.
 */
final class AdaptiveSlot implements Slot {

  final AdaptiveLimit limit;

  AdaptiveSlot(AdaptiveLimit limit) {
    this.limit = limit;
  }

  @Override
  public @Nullable RefusedException enter(Call entry) {
    return limit.tryAcquire() ? null : limit.refusal;
  }

  @Override
  public void abandon(Call entry) {
    limit.release();
  }

  @Override
  public void exit(Call entry) {
    limit.complete(entry.exitMs(), entry.rtMs(), entry.error() != null);
  }
}
