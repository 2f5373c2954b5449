package dev.guard.engine.internal.breaker;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.engine.internal.chain.SlotContext;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * The circuit breaker of one {@link CircuitBreakerRule} on one resource.
 *
 * <p><b>States.</b> CLOSED admits every call. After each completion while CLOSED the window is
 * checked: with {@code calls >= minCalls}, the breaker opens when {@code bad / calls > threshold}
 * (ratio strategies; also when every call was bad and the threshold is 1.0) or {@code bad >
 * threshold} (error count), and the next probe is allowed at {@code retryAt = now + openFor}.
 * OPEN refuses calls while {@code now < retryAt}; the first call at or after {@code retryAt}
 * half-opens the breaker and is its first probe. HALF_OPEN admits up to {@code maxProbes} probes
 * in total and refuses the rest. A bad probe reopens ({@code retryAt = now + openFor}); when
 * {@code maxProbes} probes have succeeded the breaker closes and empties its window. A probe that
 * a later check refuses reopens without moving {@code retryAt}, so the next call probes again. A
 * half-open period that has not decided {@code probeTimeout} after it began counts as a failed
 * probe at that deadline: the breaker reopens with {@code retryAt = deadline + openFor} (noticed
 * by the next call or probe exit). FORCED_OPEN and FORCED_CLOSED are set and left by an operator.
 *
 * <p><b>Probes.</b> Each half-open period has a new epoch; a probe carries its epoch (the slot
 * keeps it as the call's grant), so only probes of the current period decide. A probe of an
 * earlier period, and any other call completing while the breaker is not closed, is only counted.
 *
 * <p><b>Concurrency.</b> The state is an immutable {@link Phase} in a volatile field. The pass
 * path reads it once: a closed breaker admits with no write and no lock. Transitions (rare) take
 * the breaker's monitor and re-read the phase, so each happens once and its event is published,
 * in order, while the monitor is held. Completions record into the {@link BreakerWindow} without
 * a lock. A closed breaker checks the window after a bad completion, and after a good one only
 * until a check has seen the window hold {@code minCalls} calls while the current bucket was
 * current: until the bucket changes, good calls only add to the calls and lower the ratio, so they
 * cannot open the breaker. For calls made one after another this decides exactly as checking
 * after every completion (a property test compares the two).
 */
final class Breaker implements CircuitBreaker {

  /** {@link #tryPass}: admitted, not a probe. */
  static final long PASS = 0L;

  /** {@link #tryPass}: refused. */
  static final long REFUSE = -1L;

  private static final OptionalDouble NONE = OptionalDouble.empty();
  private static final OptionalDouble FAILED_PROBE = OptionalDouble.of(1.0);

  /** What the breaker is doing, as one immutable value. */
  private static final class Phase {
    final CircuitBreaker.State state;
    final boolean admitsAll;
    final long sinceMs; // when this state began
    final long retryAtMs; // OPEN: first probe allowed; HALF_OPEN: that of the OPEN state before
    final long epoch; // HALF_OPEN: this period's probe epoch (> 0); others: the last one
    final int granted; // HALF_OPEN: probes admitted
    final int succeeded; // HALF_OPEN: probes that succeeded

    Phase(CircuitBreaker.State state, long sinceMs, long retryAtMs, long epoch, int granted,
        int succeeded) {
      this.state = state;
      this.admitsAll = state == CircuitBreaker.State.CLOSED || state == CircuitBreaker.State.FORCED_CLOSED;
      this.sinceMs = sinceMs;
      this.retryAtMs = retryAtMs;
      this.epoch = epoch;
      this.granted = granted;
      this.succeeded = succeeded;
    }
  }

  private final String resource;
  private final CircuitBreakerRule rule;
  private final SlotContext engine;
  private final boolean slowCalls;
  private final boolean byCount;
  private final double threshold;
  private final long slowMs;
  private final int minCalls;
  private final long openForMs;
  private final long probeTimeoutMs;
  private final int maxProbes;
  private final BreakerWindow window;
  final RefusedException.Breaker refusal;
  private volatile Phase phase;

  Breaker(String resource, CircuitBreakerRule rule, SlotContext engine) {
    this.resource = resource;
    this.rule = rule;
    this.engine = engine;
    this.slowCalls = rule.strategy() == CircuitBreakerRule.Strategy.SLOW_CALL_RATIO;
    this.byCount = rule.strategy() == CircuitBreakerRule.Strategy.ERROR_COUNT;
    this.threshold = rule.threshold();
    Duration slow = rule.slowerThan();
    this.slowMs = slow == null ? 0L : slow.toMillis();
    this.minCalls = rule.minCalls();
    this.openForMs = rule.openFor().toMillis();
    this.probeTimeoutMs = rule.effectiveProbeTimeout().toMillis();
    this.maxProbes = rule.probes();
    this.window = new BreakerWindow(rule.buckets(), rule.window().toMillis());
    this.phase = new Phase(CircuitBreaker.State.CLOSED, 0L, 0L, 0L, 0, 0);
    this.refusal = new RefusedException.Breaker(this);
  }

  /**
   * Decides a call.
   *
   * @param nowMs the decision time
   * @return {@link #PASS}, {@link #REFUSE}, or the epoch of the probe granted to the call ({@code
   *     > 0})
   */
  long tryPass(long nowMs) {
    Phase now = phase;
    if (now.admitsAll) {
      return PASS;
    }
    if (now.state == CircuitBreaker.State.OPEN && nowMs - now.retryAtMs < 0
        || now.state == CircuitBreaker.State.HALF_OPEN && now.granted >= maxProbes && !expired(now, nowMs)
        || now.state == CircuitBreaker.State.FORCED_OPEN) {
      return REFUSE;
    }
    return tryProbe(nowMs);
  }

  private synchronized long tryProbe(long nowMs) {
    Phase current = phase;
    if (current.state == CircuitBreaker.State.HALF_OPEN && expired(current, nowMs)) {
      current = expire(current, nowMs);
    }
    switch (current.state) {
      case OPEN -> {
        if (nowMs - current.retryAtMs < 0) {
          return REFUSE;
        }
        long epoch = current.epoch + 1;
        move(new Phase(CircuitBreaker.State.HALF_OPEN, nowMs, current.retryAtMs, epoch, 1, 0), NONE,
            nowMs);
        return epoch;
      }
      case HALF_OPEN -> {
        if (current.granted >= maxProbes) {
          return REFUSE;
        }
        phase = new Phase(CircuitBreaker.State.HALF_OPEN, current.sinceMs, current.retryAtMs,
            current.epoch, current.granted + 1, current.succeeded);
        return current.epoch;
      }
      case FORCED_OPEN -> {
        return REFUSE;
      }
      default -> {
        return PASS;
      }
    }
  }

  /**
   * Records a completed call and moves the breaker as its outcome says.
   *
   * @param nowMs when it completed
   * @param rtMs its response time
   * @param failed whether it ended with a business error
   * @param probeEpoch the epoch of the probe it was granted, or 0
   */
  void complete(long nowMs, long rtMs, boolean failed, long probeEpoch) {
    boolean bad = slowCalls ? rtMs > slowMs : failed;
    BreakerWindow.Bucket bucket = window.record(nowMs, bad);
    if (probeEpoch != 0L && finishProbe(probeEpoch, bad, nowMs)) {
      return;
    }
    if (phase.state != CircuitBreaker.State.CLOSED || !bad && (bucket == null || bucket.warm)) {
      return;
    }
    long calls = window.calls(nowMs);
    if (calls < minCalls) {
      return;
    }
    if (bucket != null) {
      bucket.warm = true;
    }
    long badCalls = window.bad(nowMs);
    double value = byCount ? badCalls : (double) badCalls / calls;
    boolean trips = byCount
        ? badCalls > threshold
        : value > threshold || badCalls == calls && threshold == 1.0;
    if (trips) {
      open(nowMs, value);
    }
  }

  private synchronized void open(long nowMs, double value) {
    if (phase.state == CircuitBreaker.State.CLOSED) {
      move(reopened(phase, nowMs, nowMs + openForMs), OptionalDouble.of(value), nowMs);
    }
  }

  /** Decides a probe's outcome; false if it is not a probe of the current half-open period. */
  private synchronized boolean finishProbe(long epoch, boolean bad, long nowMs) {
    Phase current = phase;
    if (current.state != CircuitBreaker.State.HALF_OPEN || current.epoch != epoch) {
      return false;
    }
    if (expired(current, nowMs)) {
      expire(current, nowMs);
    } else if (bad) {
      move(reopened(current, nowMs, nowMs + openForMs), FAILED_PROBE, nowMs);
    } else if (current.succeeded + 1 >= maxProbes) {
      window.clear();
      move(new Phase(CircuitBreaker.State.CLOSED, nowMs, 0L, current.epoch, 0, 0), NONE, nowMs);
    } else {
      phase = new Phase(CircuitBreaker.State.HALF_OPEN, current.sinceMs, current.retryAtMs, epoch,
          current.granted, current.succeeded + 1);
    }
    return true;
  }

  /**
   * Gives back a probe that a later check refused: the breaker reopens without moving the time of
   * the next probe.
   *
   * @param epoch the probe's epoch
   * @param nowMs the decision time
   */
  synchronized void abandonProbe(long epoch, long nowMs) {
    Phase current = phase;
    if (current.state == CircuitBreaker.State.HALF_OPEN && current.epoch == epoch) {
      move(reopened(current, nowMs, current.retryAtMs), FAILED_PROBE, nowMs);
    }
  }

  private boolean expired(Phase halfOpen, long nowMs) {
    return nowMs - halfOpen.sinceMs >= probeTimeoutMs;
  }

  /** Reopens a half-open period that missed its deadline, as if a probe failed then. */
  private Phase expire(Phase halfOpen, long nowMs) {
    long deadline = halfOpen.sinceMs + probeTimeoutMs;
    return move(reopened(halfOpen, nowMs, deadline + openForMs), FAILED_PROBE, nowMs);
  }

  private static Phase reopened(Phase from, long nowMs, long retryAtMs) {
    return new Phase(CircuitBreaker.State.OPEN, nowMs, retryAtMs, from.epoch, 0, 0);
  }

  /** Sets the phase and publishes the change; the caller holds the monitor. */
  private Phase move(Phase next, OptionalDouble trigger, long nowMs) {
    CircuitBreaker.State from = phase.state;
    phase = next;
    if (from != next.state) {
      engine.publish(new CircuitBreaker.Transition(resource, rule, from, next.state, trigger, nowMs));
    }
    return next;
  }

  @Override
  public String resource() {
    return resource;
  }

  @Override
  public CircuitBreakerRule rule() {
    return rule;
  }

  @Override
  public CircuitBreaker.State state() {
    return phase.state;
  }

  @Override
  public Duration retryAfter() {
    Phase current = phase;
    long nowMs = engine.nowMs();
    return switch (current.state) {
      case OPEN -> Duration.ofMillis(Math.max(0L, current.retryAtMs - nowMs));
      case HALF_OPEN -> Duration.ofMillis(Math.max(0L, current.sinceMs + probeTimeoutMs - nowMs));
      case FORCED_OPEN -> rule.openFor();
      default -> Duration.ZERO;
    };
  }

  @Override
  public synchronized void forceOpen() {
    long nowMs = engine.nowMs();
    move(new Phase(CircuitBreaker.State.FORCED_OPEN, nowMs, 0L, phase.epoch, 0, 0), NONE, nowMs);
  }

  @Override
  public synchronized void forceClosed() {
    long nowMs = engine.nowMs();
    move(new Phase(CircuitBreaker.State.FORCED_CLOSED, nowMs, 0L, phase.epoch, 0, 0), NONE, nowMs);
  }

  @Override
  public synchronized void reset() {
    long nowMs = engine.nowMs();
    window.clear();
    move(new Phase(CircuitBreaker.State.CLOSED, nowMs, 0L, phase.epoch, 0, 0), NONE, nowMs);
  }

  @Override
  public String toString() {
    return "CircuitBreaker[" + resource + ", " + phase.state + ", " + rule + "]";
  }
}
