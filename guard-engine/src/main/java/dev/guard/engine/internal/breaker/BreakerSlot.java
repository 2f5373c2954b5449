package dev.guard.engine.internal.breaker;

import dev.guard.engine.internal.chain.Call;
import dev.guard.api.RefusedException;
import dev.guard.api.CircuitBreaker;
import dev.guard.engine.internal.chain.Slot;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Asks a resource's circuit breakers in rule order; the first that refuses refuses the call. A
 * call admitted by a closed breaker costs one volatile read per breaker and allocates nothing.
 *
 * <p>A breaker that half-opens for a call grants it a probe; the probes of a call are its grant:
 * an array of probe epochs by breaker position (0: no probe), allocated only for a call that
 * probes. When a later breaker of this slot refuses the call, or a later slot does ({@link
 * #abandon}), every probe it was granted is given back and its breaker reopens without moving
 * the time of its next probe. At exit every breaker records the call's outcome; a probe's outcome
 * decides its breaker.
 */
final class BreakerSlot implements Slot {

  final Breaker[] breakers;

  BreakerSlot(Breaker[] breakers) {
    this.breakers = breakers;
  }

  @Override
  public @Nullable RefusedException enter(Call entry) {
    long nowMs = entry.nowMs();
    Breaker[] all = breakers;
    long[] probes = null;
    for (int i = 0; i < all.length; i++) {
      long verdict = all[i].tryPass(nowMs);
      if (verdict == Breaker.PASS) {
        continue;
      }
      if (verdict == Breaker.REFUSE) {
        if (probes != null) {
          giveBack(probes, nowMs);
        }
        return all[i].refusal;
      }
      if (probes == null) {
        probes = new long[all.length];
      }
      probes[i] = verdict;
    }
    if (probes != null) {
      entry.keepGrant(probes);
    }
    return null;
  }

  @Override
  public void abandon(Call entry) {
    if (entry.grant() instanceof long[] probes) {
      giveBack(probes, entry.nowMs());
    }
  }

  @Override
  public void exit(Call entry) {
    long[] probes = entry.grant() instanceof long[] granted ? granted : null;
    long nowMs = entry.exitMs();
    long rtMs = entry.rtMs();
    boolean failed = entry.error() != null;
    Breaker[] all = breakers;
    for (int i = 0; i < all.length; i++) {
      all[i].complete(nowMs, rtMs, failed, probes == null ? 0L : probes[i]);
    }
  }

  private void giveBack(long[] probes, long nowMs) {
    for (int i = 0; i < probes.length; i++) {
      if (probes[i] != 0L) {
        breakers[i].abandonProbe(probes[i], nowMs);
      }
    }
  }

  List<CircuitBreaker> view() {
    return List.of(breakers);
  }
}
