package dev.guard.engine.internal.pervalue;

import dev.guard.engine.internal.quota.TokenBuckets;
import org.jspecify.annotations.Nullable;

/**
 * The token bucket of a QPS per-value rule, per value: {@code T} is the value's threshold,
 * {@code D} the period in milliseconds, {@code max = T + burst}; the arithmetic, shared with
 * quotas and stated there, is {@link TokenBuckets}'.
 */
final class TokenBucketGate extends ValueGate {

  private static final long NANOS_PER_MS = 1_000_000L;

  final long periodMs;
  final int burst;

  TokenBucketGate(long periodMs, int burst) {
    this.periodMs = periodMs;
    this.burst = burst;
  }

  static long pack(long refillMs, long tokens) {
    return TokenBuckets.pack(refillMs, tokens);
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
    return state == null || TokenBuckets.next(state.bits(), threshold, max, periodMs, permits,
        nowNanos / NANOS_PER_MS) != REFUSED;
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
      long next = TokenBuckets.next(bits, threshold, max, periodMs, permits, nowMs);
      if (next == REFUSED) {
        return REFUSED;
      }
      if (state.compareAndSet(bits, next)) {
        return 0;
      }
    }
  }

  @Override
  void giveBack(ValueState state, int permits) {
    long max = (long) state.threshold + burst;
    while (true) {
      long bits = state.bits();
      if (state.compareAndSet(bits, TokenBuckets.givenBack(bits, permits, max))) {
        return;
      }
    }
  }

  @Override
  long retryAfterNanos(@Nullable ValueState state, int threshold, int permits, long nowNanos) {
    long max = (long) threshold + burst;
    if (threshold == 0 || permits > max) {
      return -1;
    }
    if (state == null) {
      return 0;
    }
    return TokenBuckets.retryAfterMs(state.bits(), threshold, periodMs, permits,
        nowNanos / NANOS_PER_MS) * NANOS_PER_MS;
  }
}
