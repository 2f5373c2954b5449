package dev.guard.engine.internal.adaptive;

import dev.guard.api.RefusedException;
import dev.guard.engine.internal.chain.Call;
import dev.guard.engine.internal.chain.Slot;
import org.jspecify.annotations.Nullable;

/**
 * Admits a call while fewer calls than the adaptive limit are in flight, and feeds the call's
 * outcome to the limit at exit. An admitted call costs one compare-and-set at entry and a few
 * atomic additions at exit; a refused one returns the rule's one refusal instance. With shares,
 * the call's share group is kept on the entry (grant bits; group 0 keeps none), so that exit
 * gives the place back to it.
 */
final class AdaptiveSlot implements Slot {

  final AdaptiveLimit limit;

  AdaptiveSlot(AdaptiveLimit limit) {
    this.limit = limit;
  }

  @Override
  public @Nullable RefusedException enter(Call entry) {
    int group = limit.tryAcquire(entry.origin());
    if (group < 0) {
      return limit.refusal;
    }
    if (group > 0) {
      entry.keepGrantBits(group);
    }
    return null;
  }

  @Override
  public void abandon(Call entry) {
    limit.release((int) entry.grantBits());
  }

  @Override
  public void exit(Call entry) {
    limit.complete(entry.exitMs(), entry.rtMs(), entry.error() != null, (int) entry.grantBits());
  }
}
