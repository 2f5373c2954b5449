package dev.guard.engine.internal.flow;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The schedule of a pacing controller: the engine time, in nanoseconds, at which the most recently
 * admitted call goes (or went) through. The {@link PacingController} prices each call from its
 * rate source.
 *
 * <p><b>Reserve.</b> A call costing {@code cost} ns, decided at {@code now} with {@code latest}
 * the latest slot:
 *
 * <ul>
 *   <li>no slot yet, or {@code now − latest ≥ cost}: the call goes now and {@code latest = now}
 *       (idle time gives no credit beyond "pass now");
 *   <li>otherwise its slot is {@code latest + cost} and it waits {@code wait = latest + cost −
 *       now}; if {@code wait > maxWait} it is refused at once, else {@code latest} becomes its
 *       slot.
 * </ul>
 *
 * <p>Either step commits with one compare-and-set on {@code latest} and retries on contention, so
 * a reservation is never made and then undone (Sentinel adds first and subtracts again when the
 * bound turns out to be exceeded, which can refuse a call that a slot was free for).
 *
 * <p><b>Invariants.</b> {@code latest} only moves forward (except by {@link #release}); every
 * admitted call's slot ({@code now + wait}) is the value it wrote, so slots in commit order are
 * increasing and at least the later call's cost apart; no admitted call waits more than {@code
 * maxWait}. These hold for any interleaving, also when callers pass slightly stale {@code now}
 * values. The initial state does not depend on the clock origin: the first call always passes.
 *
 * <p>Costs are capped at {@link ShapingChecks#MAX_NANOS} and engine time is non-negative, so the
 * arithmetic cannot overflow.
 */
final class PacingSchedule {

  private static final long NEVER = Long.MIN_VALUE;

  private final AtomicLong latest = new AtomicLong(NEVER);

  /**
   * Decides one call and reserves its slot if it is admitted.
   *
   * @param costNanos the spacing the call needs after the previous one; non-negative
   * @param maxWaitNanos the longest admissible wait; non-negative
   * @param nowNanos engine time in nanoseconds
   * @return {@link Decision#PASS}, a positive wait, or {@link Decision#REFUSE}
   */
  long reserve(long costNanos, long maxWaitNanos, long nowNanos) {
    while (true) {
      long last = latest.get();
      if (last == NEVER || nowNanos - last >= costNanos) {
        if (latest.compareAndSet(last, nowNanos)) {
          return Decision.PASS;
        }
        continue;
      }
      long slot = last + costNanos;
      long wait = slot - nowNanos;
      if (wait > maxWaitNanos) {
        return Decision.REFUSE;
      }
      if (latest.compareAndSet(last, slot)) {
        return Decision.waitThenPass(wait);
      }
    }
  }

  /**
   * Gives back {@code costNanos} of the schedule after a waiting caller abandoned its slot: the
   * latest slot moves back by that cost.
   *
   * @param costNanos the cost the abandoned call reserved
   */
  void release(long costNanos) {
    while (true) {
      long last = latest.get();
      if (last == NEVER || latest.compareAndSet(last, last - costNanos)) {
        return;
      }
    }
  }

  /** The latest slot in engine nanoseconds, or {@link Long#MIN_VALUE} before the first call. */
  long latestSlotNanos() {
    return latest.get();
  }
}
