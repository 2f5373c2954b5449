package dev.guard.engine.internal.quota;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.rule.Quota;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The quotas of one key, each a bucket of {@link TokenBuckets} with {@code max = rate = limit}:
 * a flow rule's quotas are those of one constant key. A call is taken only when every quota
 * would admit it, then from each in turn by compare-and-set; a take that still fails (another
 * thread took the last call in between) gives back the takes before it, so a refused call takes
 * nothing. No lock, nothing allocated.
 *
 * <p>A quota's window starts at the first call that takes from it, and the next one at the first
 * call after it has ended. A quota that is full is "not started": its refill time is the origin,
 * more than a day before it was created, so that the next call refills it and starts a window at
 * its own time. Giving back calls until a quota is full again makes it not started again: a
 * window that only calls which never ran took from is undone with them, so a call given back
 * leaves each quota as if it had never come.
 */
public final class QuotaBuckets {

  private static final long NANOS_PER_MS = 1_000_000L;

  private final int[] limits;
  private final long[] periodsMs;
  private final AtomicLongArray states;
  /** Engine ms of refill time 0: more than the longest period before the quotas were made. */
  private final long originMs;

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
    this.originMs = nowNanos / NANOS_PER_MS - RuleLimits.MAX_DURATION.toMillis() - 1;
    for (int q = 0; q < n; q++) {
      limits[q] = quotas.get(q).limit();
      periodsMs[q] = quotas.get(q).period().toMillis();
      states.set(q, TokenBuckets.pack(0, limits[q]));
    }
  }

  /** Time since the origin, in ms: what the buckets' refill times count. */
  private long sinceOrigin(long nowNanos) {
    return nowNanos / NANOS_PER_MS - originMs;
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
    long nowMs = sinceOrigin(nowNanos);
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
    int limit = limits[q];
    while (true) {
      long bits = states.get(q);
      long back = TokenBuckets.givenBack(bits, permits, limit);
      if ((back & TokenBuckets.TOKEN_MASK) == limit) {
        back = TokenBuckets.pack(0, limit); // full again: not started, as if never taken from
      }
      if (states.compareAndSet(q, bits, back)) {
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
   * How many calls quota {@code q} would still admit now, off the call path (docs/BEHAVIOUR.md,
   * "Budget"): its limit once its window has ended (or before it started), else what is left.
   *
   * @param q the quota's index, as in the rule's list
   * @param nowNanos engine time
   * @return the calls left, from 0 to the quota's limit
   */
  public long remaining(int q, long nowNanos) {
    long bits = states.get(q);
    return ended(bits, q, sinceOrigin(nowNanos)) ? limits[q] : bits & TokenBuckets.TOKEN_MASK;
  }

  /**
   * How long until quota {@code q} is full again: until the first moment its window has ended
   * ({@code period + 1 ms} after its refill), 0 when it is full or its window has ended.
   *
   * @param q the quota's index, as in the rule's list
   * @param nowNanos engine time
   * @return nanoseconds, at least 0
   */
  public long resetNanos(int q, long nowNanos) {
    long bits = states.get(q);
    long nowMs = sinceOrigin(nowNanos);
    if (ended(bits, q, nowMs) || (bits & TokenBuckets.TOKEN_MASK) >= limits[q]) {
      return 0L;
    }
    return Math.max(0L, (bits >>> TokenBuckets.TOKEN_BITS) + periodsMs[q] + 1 - nowMs)
        * NANOS_PER_MS;
  }

  private boolean ended(long bits, int q, long nowMs) {
    return nowMs - (bits >>> TokenBuckets.TOKEN_BITS) > periodsMs[q];
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
    long nowMs = sinceOrigin(nowNanos);
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
