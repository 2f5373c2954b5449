package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.FlowMetrics;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The "coldness" of a warm-up rule: a token bucket whose fill level sets the rate the rule admits.
 * It is the {@link RateSource} of warm-up rules, for fast reject and for pacing alike.
 *
 * <p><b>Constants.</b> With {@code c = count}, {@code p} the warm-up period in seconds and {@code f
 * = coldFactor}:
 *
 * <ul>
 *   <li>{@code warningToken = ⌊p·c⌋ div (f − 1)};
 *   <li>{@code maxToken = warningToken + ⌊2·p·c / (1 + f)⌋} (the warm-up band lies between the
 *       two);
 *   <li>{@code slope = (f − 1) / c / (maxToken − warningToken)}.
 * </ul>
 *
 * <p><b>Rate.</b> With {@code rest} stored tokens, the allowed rate is {@code c} below the warning
 * line and {@code nextUp(1 / ((rest − warningToken)·slope + 1 / c))} on or above it: {@code c / f}
 * at {@code maxToken}, rising to (just above) {@code c} at the warning line. Draining the band at
 * the allowed rate takes about {@code p} seconds.
 *
 * <p><b>Sync.</b> Once per whole second (the first decision whose second {@code t = now − now mod
 * 1000} is later than {@code lastFilled}), with {@code prev} = the passes of the previous whole
 * second: refill by {@code ⌊(t − lastFilled)·c / 1000⌋} if the bucket is below the warning line,
 * or above it while {@code prev < ⌊c⌋ div f} (traffic slower than the cold rate: the system cools
 * down); cap at {@code maxToken}; then take {@code prev} away (not below 0). Passes drain the
 * bucket one second late, exactly as Sentinel does; the integer threshold {@code ⌊c⌋ div f} and
 * the missing refill at exactly {@code warningToken} are kept because scenario A4 pins their
 * numbers. The winner of a compare-and-set on {@code lastFilled} performs the sync; its token
 * update is itself a compare-and-set loop, so a late sync can never overwrite a newer one.
 *
 * <p><b>Differences from Sentinel.</b>
 *
 * <ul>
 *   <li>Cold start whatever the clock origin: the bucket is created full ({@code maxToken}) and
 *       the first sync treats the elapsed time as unbounded. Sentinel starts empty and relies on
 *       "now − 0" being large, so a clock near zero started hot (Q2); engine time starts at 0.
 *   <li>No warm-up band ({@code maxToken == warningToken}, when {@code 2·p·c < 1 + f}): the rate
 *       is simply {@code c}. Sentinel divides by zero there and refusals every call.
 *   <li>Rates below one call per second are the controllers' business (see {@link
 *       RefuseController}); this class only reports the rate.
 * </ul>
 *
 * <p>Thread-safe and lock-free; no allocation after construction.
 */
final class WarmUpTokens implements RateSource {

  private static final long NEVER = Long.MIN_VALUE;

  private final double count;
  private final long warningToken;
  private final long maxToken;
  private final double slope;
  private final long coolingThreshold;
  private final AtomicLong storedTokens;
  private final AtomicLong lastFilledMs = new AtomicLong(NEVER);

  WarmUpTokens(double count, Duration warmUpPeriod, int coldFactor) {
    this.count = ShapingChecks.count(count);
    ShapingChecks.coldFactor(coldFactor);
    double periodSeconds = ShapingChecks.seconds(ShapingChecks.notNegative("warmUpPeriod",
        warmUpPeriod));
    this.warningToken = (long) (periodSeconds * count) / (coldFactor - 1);
    this.maxToken = warningToken + (long) (2 * periodSeconds * count / (1 + coldFactor));
    this.slope = maxToken > warningToken ? (coldFactor - 1) / count / (maxToken - warningToken) : 0;
    this.coolingThreshold = (long) count / coldFactor;
    this.storedTokens = new AtomicLong(maxToken);
  }

  /**
   * Brings the bucket up to date at most once per whole second.
   *
   * @param nowMs engine time in milliseconds
   * @param previousPasses the passes of the previous whole second (truncated)
   */
  /**
   * Tells whether a new whole second has started since the last sync, so that {@link #sync} has
   * work to do: callers skip reading the previous second's passes otherwise.
   */
  boolean due(long nowMs) {
    long last = lastFilledMs.get();
    return last == NEVER || nowMs - nowMs % 1000 - last > 0;
  }

  void sync(long nowMs, long previousPasses) {
    long second = nowMs - nowMs % 1000;
    long last = lastFilledMs.get();
    if (last != NEVER && second - last <= 0) {
      return;
    }
    if (!lastFilledMs.compareAndSet(last, second)) {
      return; // another caller syncs this second
    }
    long elapsedMs = last == NEVER ? Long.MAX_VALUE : second - last;
    long old;
    long next;
    do {
      old = storedTokens.get();
      next = Math.max(0L, refilled(old, elapsedMs, previousPasses) - previousPasses);
    } while (!storedTokens.compareAndSet(old, next));
  }

  private long refilled(long old, long elapsedMs, long previousPasses) {
    boolean refill =
        old < warningToken || (old > warningToken && previousPasses < coolingThreshold);
    if (!refill) {
      return old;
    }
    double added = elapsedMs * count / 1000;
    return added >= maxToken - old ? maxToken : old + (long) added;
  }

  /**
   * The rate the bucket's fill level allows now, in calls per second.
   *
   * @return {@code count} when warm, down to {@code count / coldFactor} when cold
   */
  @Override
  public double rate(FlowMetrics node, long nowMs) {
    if (due(nowMs)) {
      sync(nowMs, (long) node.previousPassQps(nowMs));
    }
    return allowedQps();
  }

  @Override
  public double lastRate() {
    return allowedQps();
  }

  double allowedQps() {
    long rest = storedTokens.get();
    if (rest < warningToken || maxToken == warningToken) {
      return count;
    }
    return Math.nextUp(1.0 / ((rest - warningToken) * slope + 1.0 / count));
  }

  long storedTokens() {
    return storedTokens.get();
  }

  long warningToken() {
    return warningToken;
  }

  long maxToken() {
    return maxToken;
  }

  double slope() {
    return slope;
  }

  @Override
  public double count() {
    return count;
  }
}
