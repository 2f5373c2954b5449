package dev.guard.properties;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.CircuitBreakerRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain reference model of one circuit breaker, written from the documented rules: one line per
 * transition, the window as a list of outcomes, and a check after every completion. The engine's
 * breaker must follow it for calls made one after another.
 */
final class BreakerModel {

  /** {@link #enter}: refused. */
  static final long REFUSED = -1;

  private final CircuitBreakerRule rule;
  private final long bucketMs;
  private final long openFor;
  private final long probeTimeout;
  private final List<long[]> outcomes = new ArrayList<>(); // {time, bad}
  private CircuitBreaker.State state = CircuitBreaker.State.CLOSED;
  private long retryAt;
  private long since;
  private long epoch;
  private int granted;
  private int succeeded;

  BreakerModel(CircuitBreakerRule rule) {
    this.rule = rule;
    this.bucketMs = rule.window().toMillis() / rule.buckets();
    this.openFor = rule.openFor().toMillis();
    this.probeTimeout = rule.effectiveProbeTimeout().toMillis();
  }

  CircuitBreaker.State state() {
    return state;
  }

  /** Decides a call at {@code now}: {@link #REFUSED}, 0 (admitted) or the probe's epoch. */
  long enter(long now) {
    if (state == CircuitBreaker.State.HALF_OPEN && now - since >= probeTimeout) open(since + probeTimeout + openFor);
    if (state == CircuitBreaker.State.CLOSED || state == CircuitBreaker.State.FORCED_CLOSED) return 0;
    if (state == CircuitBreaker.State.OPEN && now >= retryAt) return halfOpen(now);
    if (state == CircuitBreaker.State.HALF_OPEN && granted < rule.probes()) return ++granted > 0 ? epoch : 0;
    return REFUSED;
  }

  /** Completes a call admitted as {@code probe} (0: not a probe) at {@code now}. */
  void exit(long probe, long now, long rt, boolean failed) {
    boolean bad = rule.strategy() == CircuitBreakerRule.Strategy.SLOW_CALL_RATIO ? rt > slowMs() : failed;
    outcomes.add(new long[] {now, bad ? 1 : 0});
    boolean current = probe != 0 && state == CircuitBreaker.State.HALF_OPEN && probe == epoch;
    if (current && now - since >= probeTimeout) open(since + probeTimeout + openFor);
    else if (current && bad) open(now + openFor);
    else if (current && ++succeeded == rule.probes()) close();
    else if (!current && state == CircuitBreaker.State.CLOSED && trips(now)) open(now + openFor);
  }

  void forceOpen() {
    state = CircuitBreaker.State.FORCED_OPEN;
  }

  void forceClosed() {
    state = CircuitBreaker.State.FORCED_CLOSED;
  }

  void reset() {
    close();
  }

  private boolean trips(long now) {
    long calls = 0;
    long bad = 0;
    for (long[] outcome : outcomes) {
      if (now / bucketMs - outcome[0] / bucketMs < rule.buckets()) {
        calls++;
        bad += outcome[1];
      }
    }
    if (calls < rule.minCalls()) return false;
    if (rule.strategy() == CircuitBreakerRule.Strategy.ERROR_COUNT) return bad > rule.threshold();
    double ratio = (double) bad / calls;
    return ratio > rule.threshold() || ratio == 1.0 && rule.threshold() == 1.0;
  }

  private long slowMs() {
    Duration slow = rule.slowerThan();
    return slow == null ? 0 : slow.toMillis();
  }

  private void open(long nextRetry) {
    state = CircuitBreaker.State.OPEN;
    retryAt = nextRetry;
  }

  private long halfOpen(long now) {
    state = CircuitBreaker.State.HALF_OPEN;
    since = now;
    granted = 1;
    succeeded = 0;
    return ++epoch;
  }

  private void close() {
    state = CircuitBreaker.State.CLOSED;
    outcomes.clear();
  }
}
