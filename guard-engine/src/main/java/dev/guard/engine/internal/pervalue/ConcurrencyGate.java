package dev.guard.engine.internal.pervalue;

import org.jspecify.annotations.Nullable;

/**
 * A concurrency limit per value (a CONCURRENCY per-value rule): the state counts the value's
 * calls running now; a call passes iff {@code running + 1 <= T} and holds its place until it
 * exits. Permits do not matter: a call is one running call.
 *
 * <p>A value with calls running is never forgotten by its table. A value without is retired
 * (the count set to {@link #RETIRED_COUNT} by compare-and-set from 0) before its table forgets it,
 * so no call can enter a state the table no longer holds: one that finds a retired state looks
 * the value up again.
 */
final class ConcurrencyGate extends ValueGate {

  private static final long RETIRED_COUNT = -1;

  @Override
  boolean releasesAtExit() {
    return true;
  }

  @Override
  long initialBits(int threshold, long nowNanos) {
    return 0;
  }

  @Override
  boolean admits(@Nullable ValueState state, int threshold, int permits, long nowNanos) {
    long running = state == null ? 0 : state.bits();
    return Math.max(0, running) + 1 <= threshold;
  }

  @Override
  long take(ValueState state, int permits, long nowNanos) {
    while (true) {
      long running = state.bits();
      if (running == RETIRED_COUNT) {
        return RETIRED;
      }
      if (running + 1 > state.threshold) {
        return REFUSED;
      }
      if (state.compareAndSet(running, running + 1)) {
        return 0;
      }
    }
  }

  @Override
  void giveBack(ValueState state, int permits) {
    while (true) {
      long running = state.bits();
      if (running <= 0 || state.compareAndSet(running, running - 1)) {
        return;
      }
    }
  }

  @Override
  long retryAfterNanos(@Nullable ValueState state, int threshold, int permits, long nowNanos) {
    return -1;
  }

  @Override
  boolean keepsBusyValues() {
    return true;
  }

  @Override
  boolean retire(ValueState state) {
    return state.compareAndSet(0, RETIRED_COUNT);
  }

  @Override
  boolean retired(ValueState state) {
    return state.bits() == RETIRED_COUNT;
  }
}
