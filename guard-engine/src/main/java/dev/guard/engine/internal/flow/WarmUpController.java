package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.StatisticNode;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Warm-up (WARM_UP): the admitted rate starts at {@code count / coldFactor} and rises to {@code
 * count} as traffic drains the {@link WarmUpTokens} bucket; it falls back when traffic stays below
 * the cold rate.
 *
 * <p><b>Decision.</b> Sync the tokens with the previous second's passes, read the allowed rate
 * {@code r}, and with {@code passed = ⌊passQps⌋} of the selected node:
 *
 * <ul>
 *   <li>{@code permits ≤ r} (the usual case): pass iff {@code passed + permits ≤ r}, exactly as
 *       Sentinel (scenario A4: 3 3 3 3 3 4 4 4 5 5 6 7 10 … per second for count 10, 10 s, factor
 *       3).
 *   <li>{@code permits > r} (sparse mode, e.g. a cold rate below one call per second): pass iff
 *       the window is empty ({@code passed == 0}) and at least {@code permits / r} seconds have
 *       passed since the previous sparse admission (the first one passes at once). A
 *       compare-and-set on that admission time lets exactly one of several simultaneous callers
 *       through.
 * </ul>
 *
 * <p><b>Differences from Sentinel.</b>
 *
 * <ul>
 *   <li>No starvation (Q1). With {@code count < coldFactor} the cold rate is below 1/s; Sentinel
 *       then admits nothing, so the bucket never drains and the resource is blocked forever (the
 *       same happens to any call asking for more permits than the cold rate). Sparse mode admits
 *       such calls at the allowed rate on average, each admission drains the bucket, and the rate
 *       climbs to {@code count}: with count 2, 10 s, factor 3 and arrivals at every second, one
 *       call every 2 s at first, then 1/s, then 2/s. Under constant overload the gap between
 *       admissions never grows and, once every second admits, the count per second never falls.
 *   <li>Cold on first use and no blocking without a warm-up band: see {@link WarmUpTokens}.
 *   <li>{@code permits ≤ 0} passes and {@code count == 0} refuses every other call (Sentinel's
 *       arithmetic happens to give similar results); {@code prioritized} is ignored, as in
 *       Sentinel.
 *   <li>Known coarseness kept for compatibility (A4): decisions use {@code ⌊passQps⌋} of the
 *       sliding second window, and tokens drain one second late from the previous whole second's
 *       passes. With count below the cold factor, tokens above the warning line never refill (the
 *       refill threshold {@code ⌊count⌋ div coldFactor} is 0); the bucket cools down again only
 *       after idling below the warning line.
 * </ul>
 *
 * <p>A rule that measures every call of its resource decides the usual case from a {@link
 * PassBudget} (the same decisions, without reading the window's pass count on every call).
 *
 * <p>Thread-safe and lock-free; a decision allocates nothing (a budget allocates one small object
 * per bucket).
 */
public final class WarmUpController implements TrafficShapingController {

  private static final long NEVER = Long.MIN_VALUE;

  private final WarmUpTokens tokens;
  private final AtomicLong lastSparseAdmissionNanos = new AtomicLong(NEVER);
  private final @Nullable PassBudget budget;

  /**
   * Creates a warm-up controller, starting cold.
   *
   * @param count the warm rate in calls per second; finite and {@code >= 0} (0 refuses every call)
   * @param warmUpPeriod about how long full traffic takes to warm a cold resource; zero or positive
   * @param coldFactor the cold rate is {@code count / coldFactor}; greater than 1
   * @throws IllegalArgumentException if a value is out of range
   * @throws NullPointerException if {@code warmUpPeriod} is null
   */
  public WarmUpController(double count, Duration warmUpPeriod, int coldFactor) {
    this(count, warmUpPeriod, coldFactor, false);
  }

  /**
   * Creates a warm-up controller, starting cold, that decides the usual case from a {@link
   * PassBudget} when {@code budgeted}: only for rules that measure every call of their resource.
   *
   * @param count the warm rate in calls per second
   * @param warmUpPeriod about how long full traffic takes to warm a cold resource
   * @param coldFactor the cold rate is {@code count / coldFactor}
   * @param budgeted whether to decide from a budget instead of reading the window per call
   */
  WarmUpController(double count, Duration warmUpPeriod, int coldFactor, boolean budgeted) {
    this.tokens = new WarmUpTokens(count, warmUpPeriod, coldFactor);
    this.budget = budgeted ? new PassBudget() : null;
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
    double rate = tokens.allowedQps();
    PassBudget passes = budget;
    if (passes != null && permits <= rate && node instanceof StatisticNode) {
      int taken = passes.acquire((StatisticNode) node, rate, permits, nowMs);
      if (taken != PassBudget.UNBUDGETED) {
        return taken == PassBudget.ADMITTED ? Decision.PASS : Decision.BLOCK;
      }
    }
    long passed = (long) node.passQps(nowMs);
    if (permits <= rate) {
      return passed + permits <= rate ? Decision.PASS : Decision.BLOCK;
    }
    return passed == 0 ? admitSparse(permits, rate, nowNanos) : Decision.BLOCK;
  }

  private long admitSparse(int permits, double rate, long nowNanos) {
    long last = lastSparseAdmissionNanos.get();
    if (last != NEVER && nowNanos - last < ShapingChecks.spacingNanos(permits, rate)) {
      return Decision.BLOCK;
    }
    if (!lastSparseAdmissionNanos.compareAndSet(last, nowNanos)) {
      return Decision.BLOCK;
    }
    PassBudget passes = budget;
    if (passes != null) {
      passes.recount(); // this pass did not come from the budget
    }
    return Decision.PASS;
  }

  @Override
  public void refund(int permits, long decidedAtMs) {
    PassBudget passes = budget;
    if (passes != null) {
      passes.refund(permits, decidedAtMs);
    }
  }

  WarmUpTokens tokens() {
    return tokens;
  }
}
