package dev.guard.engine.internal.pervalue;

import org.jspecify.annotations.Nullable;

/**
 * The token bucket of a QPS per-value rule, per value: {@code T} is the value's threshold,
 * {@code D} the period in milliseconds, {@code max = T + burst}, {@code n} the call's permits.
 *
 * <ul>
 *   <li>{@code T == 0} or {@code n > max}: refused.
 *   <li>A value seen for the first time has a full bucket ({@code max} tokens) refilled now.
 *   <li>{@code elapsed = now − lastRefill}. If {@code elapsed > D} (strictly: at exactly {@code D}
 *       a call is still refused), the bucket first earns {@code ⌊elapsed · T / D⌋} tokens, capped
 *       at {@code max}, and {@code lastRefill} becomes {@code now}; otherwise nothing is earned
 *       and {@code lastRefill} stays. The call passes when the bucket then holds at least {@code n}
 *       tokens and takes them.
 * </ul>
 *
 * <p>The state is one word: {@code lastRefill} (engine milliseconds, 40 bits, 34 years) above the
 * tokens (24 bits; the rule checks {@code max <= 16,777,215}). The refill is computed as {@code
 * (elapsed / D) · T + (elapsed mod D) · T / D}, saturating at {@code max} once {@code elapsed / D}
 * exceeds {@code max / T}: with {@code D <= 1 day} and {@code T < 2^24} no product exceeds 2^51,
 * so any idle time, however long, is exact in 64-bit arithmetic.
 */
final class TokenBucketGate extends ValueGate {

  static final int TOKEN_BITS = 24;
  static final long TOKEN_MASK = (1L << TOKEN_BITS) - 1;
  private static final long NANOS_PER_MS = 1_000_000L;

  private final long periodMs;
  private final int burst;

  TokenBucketGate(long periodMs, int burst) {
    this.periodMs = periodMs;
    this.burst = burst;
  }

  static long pack(long refillMs, long tokens) {
    return refillMs << TOKEN_BITS | tokens;
  }

  @Override
  long initialBits(int threshold, long nowNanos) {
    return pack(nowNanos / NANOS_PER_MS, (long) threshold + burst);
  }

  @Override
  boolean admits(@Nullable ValueState state, int threshold, int permits, long nowNanos) {
    long max = (long) threshold + burst;
    if (threshold == 0 || permits > max) {
      return false;
    }
    return state == null || next(state.bits(), threshold, max, permits, nowNanos / NANOS_PER_MS)
        != REFUSED;
  }

  @Override
  long take(ValueState state, int permits, long nowNanos) {
    int threshold = state.threshold;
    long max = (long) threshold + burst;
    if (threshold == 0 || permits > max) {
      return REFUSED;
    }
    long nowMs = nowNanos / NANOS_PER_MS;
    while (true) {
      long bits = state.bits();
      long next = next(bits, threshold, max, permits, nowMs);
      if (next == REFUSED) {
        return REFUSED;
      }
      if (state.compareAndSet(bits, next)) {
        return 0;
      }
    }
  }

  /** The state after admitting {@code permits} at {@code nowMs}, or {@link #REFUSED}. */
  private long next(long bits, int threshold, long max, int permits, long nowMs) {
    long lastRefill = bits >>> TOKEN_BITS;
    long tokens = bits & TOKEN_MASK;
    long elapsed = nowMs - lastRefill;
    if (elapsed > periodMs) {
      long earned = earned(elapsed, threshold, max);
      long left = earned + tokens > max ? max - permits : tokens + earned - permits;
      return left < 0 ? REFUSED : pack(nowMs, left);
    }
    long left = tokens - permits;
    return left < 0 ? REFUSED : pack(lastRefill, left);
  }

  /** {@code ⌊elapsed · T / D⌋}, or {@code max} once that is certainly at least {@code max}. */
  private long earned(long elapsed, int threshold, long max) {
    long periods = elapsed / periodMs;
    if (periods > max / threshold) {
      return max;
    }
    return periods * threshold + (elapsed % periodMs) * threshold / periodMs;
  }

  @Override
  void giveBack(ValueState state, int permits) {
    long max = (long) state.threshold + burst;
    while (true) {
      long bits = state.bits();
      long tokens = Math.min(max, (bits & TOKEN_MASK) + permits);
      if (state.compareAndSet(bits, pack(bits >>> TOKEN_BITS, tokens))) {
        return;
      }
    }
  }

  /**
   * The first time after which the next refill gives the bucket {@code n} tokens: more than
   * {@code D} after the last refill, and at least {@code ⌈(n − tokens) · D / T⌉} after it.
   */
  @Override
  long retryAfterNanos(@Nullable ValueState state, int threshold, int permits, long nowNanos) {
    long max = (long) threshold + burst;
    if (threshold == 0 || permits > max) {
      return -1;
    }
    if (state == null) {
      return 0;
    }
    long bits = state.bits();
    long missing = permits - (bits & TOKEN_MASK);
    long needMs = Math.max(periodMs + 1, (missing * periodMs + threshold - 1) / threshold);
    long waitMs = (bits >>> TOKEN_BITS) + needMs - nowNanos / NANOS_PER_MS;
    return Math.max(0, waitMs) * NANOS_PER_MS;
  }
}
