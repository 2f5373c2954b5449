package dev.guard.engine.internal.pervalue;

import dev.guard.api.rule.Quota;
import java.util.List;

/**
 * The quotas of one key, with the per-value rules' token-bucket arithmetic ({@link
 * TokenBucketGate} without burst, one {@link ValueState} per quota): a flow rule's quotas are
 * those of one constant key. A call is taken only when every quota would admit it, then from
 * each in turn; a take that still fails (another thread took the last call in between) gives
 * back the takes before it, so a refused call takes nothing. No lock, nothing allocated.
 */
public final class QuotaBuckets {

  private final TokenBucketGate[] gates;
  private final ValueState[] states;

  /**
   * Creates full quotas, refilled at {@code nowNanos}.
   *
   * @param quotas the quotas; not empty
   * @param nowNanos engine time
   */
  public QuotaBuckets(List<Quota> quotas, long nowNanos) {
    this.gates = new TokenBucketGate[quotas.size()];
    this.states = new ValueState[quotas.size()];
    for (int q = 0; q < gates.length; q++) {
      Quota quota = quotas.get(q);
      gates[q] = new TokenBucketGate(quota.period().toMillis(), 0);
      states[q] = new ValueState(quota.limit(), gates[q].initialBits(quota.limit(), nowNanos));
    }
  }

  /**
   * Takes {@code permits} calls from every quota, or from none.
   *
   * @param permits the call's permits
   * @param nowNanos engine time
   * @return whether every quota took them
   */
  public boolean take(int permits, long nowNanos) {
    for (int q = 0; q < gates.length; q++) {
      if (!gates[q].admits(states[q], states[q].threshold, permits, nowNanos)) {
        return false;
      }
    }
    for (int q = 0; q < gates.length; q++) {
      if (gates[q].take(states[q], permits, nowNanos) < 0) {
        for (int back = 0; back < q; back++) {
          gates[back].giveBack(states[back], permits);
        }
        return false;
      }
    }
    return true;
  }

  /**
   * Gives back what {@link #take} took for a call that did not run.
   *
   * @param permits the call's permits
   */
  public void giveBack(int permits) {
    for (int q = 0; q < gates.length; q++) {
      gates[q].giveBack(states[q], permits);
    }
  }

  /**
   * How long until {@code permits} calls could be taken from every quota: the latest refill of
   * a quota short of them.
   *
   * @param permits the call's permits
   * @param nowNanos engine time
   * @return nanoseconds (0 when every quota admits them now), or negative for never
   */
  public long retryAfterNanos(int permits, long nowNanos) {
    long retry = 0;
    for (int q = 0; q < gates.length; q++) {
      ValueState state = states[q];
      if (!gates[q].admits(state, state.threshold, permits, nowNanos)) {
        long wait = gates[q].retryAfterNanos(state, state.threshold, permits, nowNanos);
        if (wait < 0) {
          return -1;
        }
        retry = Math.max(retry, wait);
      }
    }
    return retry;
  }
}
