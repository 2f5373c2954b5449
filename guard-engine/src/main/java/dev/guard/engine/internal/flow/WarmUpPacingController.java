package dev.guard.engine.internal.flow;

import java.time.Duration;

/**
 * Warm-up with pacing (WARM_UP_RATE_LIMITER): calls are spaced as by {@link PacingController}, at
 * the rate the {@link WarmUpTokens} bucket currently allows ({@code count / coldFactor} when cold,
 * {@code count} when warm).
 *
 * <p><b>Decision.</b> Sync the tokens with the previous second's passes, read the allowed rate
 * {@code r}, price the call at {@code round(1e9 · permits / r)} nanoseconds and reserve a slot on
 * the {@link PacingSchedule} with {@code maxQueueingTime} as the bound: pass now, pass after a
 * wait, or refuse at once. Example (count 10, 10 s, factor 3): cold cost 300 ms, warm 100 ms.
 *
 * <p><b>Differences from Sentinel.</b> Nanosecond pacing (Sentinel rounds the cost to whole
 * milliseconds); cold on first use and no blocking without a warm-up band (see {@link
 * WarmUpTokens}); a one-CAS reservation and a clock-independent first call (see {@link
 * PacingSchedule}); {@code permits ≤ 0} passes and {@code count == 0} refuses every other call,
 * like pacing (Sentinel has no such shortcuts here). A cold rate below one call per second needs
 * no special case: the spacing is simply longer than a second, so the resource never starves.
 *
 * <p>Thread-safe and lock-free; a decision allocates nothing.
 */
public final class WarmUpPacingController implements TrafficShapingController {

  private final WarmUpTokens tokens;
  private final long maxQueueingNanos;
  private final PacingSchedule schedule = new PacingSchedule();

  /**
   * Creates a warm-up pacing controller, starting cold.
   *
   * @param count the warm rate in permits per second; finite and {@code >= 0} (0 refuses every
   *     call)
   * @param warmUpPeriod about how long full traffic takes to warm a cold resource; zero or positive
   * @param coldFactor the cold rate is {@code count / coldFactor}; greater than 1
   * @param maxQueueingTime the longest a call may wait; zero or positive
   * @throws IllegalArgumentException if a value is out of range
   * @throws NullPointerException if a duration is null
   */
  public WarmUpPacingController(
      double count, Duration warmUpPeriod, int coldFactor, Duration maxQueueingTime) {
    this.tokens = new WarmUpTokens(count, warmUpPeriod, coldFactor);
    this.maxQueueingNanos =
        ShapingChecks.cappedNanos(ShapingChecks.notNegative("maxQueueingTime", maxQueueingTime));
  }

  @Override
  public boolean needsPreciseTime() {
    return true;
  }

  @Override
  public long decide(FlowMetrics node, int permits, boolean prioritized, long nowNanos, long nowMs) {
    if (permits <= 0) {
      return Decision.PASS;
    }
    if (tokens.count() <= 0) {
      return Decision.BLOCK;
    }
    if (tokens.due(nowMs)) {
      tokens.sync(nowMs, (long) node.previousPassQps(nowMs));
    }
    long cost = ShapingChecks.spacingNanos(permits, tokens.allowedQps());
    return schedule.reserve(cost, maxQueueingNanos, nowNanos);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Moves the schedule back by the call's cost at the current warm-up rate (tokens change at
   * most once a second, so this is normally the cost that was reserved). As for {@link
   * PacingController#cancel}, the result is exact when the abandoned slot was the latest one.
   */
  @Override
  public void cancel(long decision, int permits) {
    if (decision > 0 && permits > 0 && tokens.count() > 0) {
      schedule.release(ShapingChecks.spacingNanos(permits, tokens.allowedQps()));
    }
  }

  WarmUpTokens tokens() {
    return tokens;
  }
}
