package dev.guard.engine.internal.pervalue;

import org.jspecify.annotations.Nullable;

/**
 * Pacing per value (a QPS per-value rule with behaviour PACING): a value's admitted calls are
 * spaced {@code cost = round(n · period / T)} nanoseconds apart ({@code T} the value's threshold,
 * {@code n} the call's permits), and a call that would wait longer than the queue bound is
 * refused.
 *
 * <p>The state is the engine time, in nanoseconds, of the value's latest admitted slot (none
 * before the first call). A call at {@code now}: with no slot yet, or {@code now − latest >=
 * cost}, it passes at once and {@code latest = now} (idle time gives no credit beyond "pass now");
 * otherwise its slot is {@code latest + cost}; it waits {@code slot − now} if that is at most the
 * queue bound (inclusive, as for flow rules; 0 means strict spacing), else it is refused. {@code T
 * == 0} refuses every call; a call of 0 permits passes untouched. Giving a call back moves the
 * latest slot back by its cost.
 */
final class PacingGate extends ValueGate {

  private static final long NEVER = Long.MIN_VALUE;
  /** A cost bound far above any wait, so that slot arithmetic cannot overflow. */
  private static final long MAX_COST = Long.MAX_VALUE / 4;

  private final long periodNanos;
  private final long maxQueueingNanos;

  PacingGate(long periodNanos, long maxQueueingNanos) {
    this.periodNanos = periodNanos;
    this.maxQueueingNanos = maxQueueingNanos;
  }

  @Override
  boolean precise() {
    return true;
  }

  private long cost(int permits, int threshold) {
    return Math.min(MAX_COST, Math.round((double) permits * periodNanos / threshold));
  }

  @Override
  long initialBits(int threshold, long nowNanos) {
    return NEVER;
  }

  @Override
  boolean admits(@Nullable ValueState state, int threshold, int permits, long nowNanos) {
    if (permits <= 0) {
      return true;
    }
    if (threshold == 0) {
      return false;
    }
    if (state == null) {
      return true;
    }
    long latest = state.bits();
    long cost = cost(permits, threshold);
    return latest == NEVER || nowNanos - latest >= cost
        || latest + cost - nowNanos <= maxQueueingNanos;
  }

  @Override
  long take(ValueState state, int permits, long nowNanos) {
    if (permits <= 0) {
      return 0;
    }
    if (state.threshold == 0) {
      return REFUSED;
    }
    long cost = cost(permits, state.threshold);
    while (true) {
      long latest = state.bits();
      if (latest == NEVER || nowNanos - latest >= cost) {
        if (state.compareAndSet(latest, nowNanos)) {
          return 0;
        }
        continue;
      }
      long slot = latest + cost;
      long wait = slot - nowNanos;
      if (wait > maxQueueingNanos) {
        return REFUSED;
      }
      if (state.compareAndSet(latest, slot)) {
        return wait;
      }
    }
  }

  @Override
  void giveBack(ValueState state, int permits) {
    if (permits <= 0 || state.threshold == 0) {
      return;
    }
    long cost = cost(permits, state.threshold);
    while (true) {
      long latest = state.bits();
      if (latest == NEVER || state.compareAndSet(latest, latest - cost)) {
        return;
      }
    }
  }

  /** The time until the call's slot would be within the queue bound. */
  @Override
  long retryAfterNanos(@Nullable ValueState state, int threshold, int permits, long nowNanos) {
    if (threshold == 0) {
      return -1;
    }
    if (state == null) {
      return 0;
    }
    long latest = state.bits();
    if (latest == NEVER) {
      return 0;
    }
    return Math.max(0, latest + cost(permits, threshold) - maxQueueingNanos - nowNanos);
  }
}
