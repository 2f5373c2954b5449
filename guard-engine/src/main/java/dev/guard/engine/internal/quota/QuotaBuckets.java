package dev.guard.engine.internal.quota;

import dev.guard.api.rule.Quota;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The quotas of one key, each a bucket of {@link TokenBuckets} with {@code max = rate = limit}:
 * a flow rule's quotas are those of one constant key. A call is taken only when every quota
 * would admit it, then from each in turn by compare-and-set; a take that still fails (another
 * thread took the last call in between) gives back the takes before it, so a refused call takes
 * nothing. No lock, nothing allocated.
 */
public final class QuotaBuckets {

  private static final long NANOS_PER_MS = 1_000_000L;

  private final int[] limits;
  private final long[] periodsMs;
  private final AtomicLongArray states;

  /**
   * Creates full quotas, refilled at {@code nowNanos}.
   *
   * @param quotas the quotas; not empty
   * @param nowNanos engine time
   */
  public QuotaBuckets(List<Quota> quotas, long nowNanos) {
    int n = quotas.size();
    this.limits = new int[n];
    this.periodsMs = new long[n];
    this.states = new AtomicLongArray(n);
    for (int q = 0; q < n; q++) {
      limits[q] = quotas.get(q).limit();
      periodsMs[q] = quotas.get(q).period().toMillis();
      states.set(q, TokenBuckets.pack(nowNanos / NANOS_PER_MS, limits[q]));
    }
  }

  private boolean admits(int q, int permits, long nowMs) {
    int limit = limits[q];
    return limit > 0 && permits <= limit && TokenBuckets.next(states.get(q), limit, limit,
        periodsMs[q], permits, nowMs) != TokenBuckets.REFUSED;
  }

  private boolean takeOne(int q, int permits, long nowMs) {
    int limit = limits[q];
    if (limit == 0 || permits > limit) {
      return false;
    }
    while (true) {
      long bits = states.get(q);
      long next = TokenBuckets.next(bits, limit, limit, periodsMs[q], permits, nowMs);
      if (next == TokenBuckets.REFUSED) {
        return false;
      }
      if (states.compareAndSet(q, bits, next)) {
        return true;
      }
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
    long nowMs = nowNanos / NANOS_PER_MS;
    for (int q = 0; q < limits.length; q++) {
      if (!admits(q, permits, nowMs)) {
        return false;
      }
    }
    for (int q = 0; q < limits.length; q++) {
      if (!takeOne(q, permits, nowMs)) {
        for (int back = 0; back < q; back++) {
          giveBackOne(back, permits);
        }
        return false;
      }
    }
    return true;
  }

  private void giveBackOne(int q, int permits) {
    while (true) {
      long bits = states.get(q);
      if (states.compareAndSet(q, bits, TokenBuckets.givenBack(bits, permits, limits[q]))) {
        return;
      }
    }
  }

  /**
   * Gives back what {@link #take} took for a call that did not run.
   *
   * @param permits the call's permits
   */
  public void giveBack(int permits) {
    for (int q = 0; q < limits.length; q++) {
      giveBackOne(q, permits);
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
    long nowMs = nowNanos / NANOS_PER_MS;
    long retryMs = 0;
    for (int q = 0; q < limits.length; q++) {
      if (limits[q] == 0 || permits > limits[q]) {
        return -1;
      }
      if (!admits(q, permits, nowMs)) {
        retryMs = Math.max(retryMs, TokenBuckets.retryAfterMs(states.get(q), limits[q],
            periodsMs[q], permits, nowMs));
      }
    }
    return retryMs * NANOS_PER_MS;
  }
}
