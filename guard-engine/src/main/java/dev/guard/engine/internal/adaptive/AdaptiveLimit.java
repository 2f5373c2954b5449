package dev.guard.engine.internal.adaptive;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The state of one adaptive concurrency rule: the calls in flight, the limit in force, and the
 * samples of the window being measured.
 *
 * <p>Admission is a compare-and-set loop on the in-flight count against the limit, so no more
 * calls than the limit are ever in flight; exit gives the place back and adds the call's response
 * time (or its failure) to the window's sums. The first exit after a window has lasted {@code
 * window} claims the window with a compare-and-set on its start (others keep adding samples and
 * go on), computes the next limit from the sums with the rule's algorithm ({@link LimitAlgorithm};
 * docs/BEHAVIOUR.md, "Adaptive concurrency", has the formulas) and opens the next window. Only
 * the claiming thread writes the algorithm's state, so nothing on the call path locks or
 * allocates. Samples added while a window closes may count in the next one; that is harmless.
 */
final class AdaptiveLimit {

  private static final long CLAIMED = Long.MIN_VALUE;

  final AdaptiveConcurrencyRule rule;
  final RefusedException.AdaptiveConcurrency refusal;
  private final long windowMs;
  private final LimitAlgorithm algorithm;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger peak = new AtomicInteger();
  private final AtomicLong successes = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong rtSumMs = new AtomicLong();
  private final AtomicLong windowStart;
  private volatile int limit;
  private final @Nullable Shares shares;

  AdaptiveLimit(String resource, AdaptiveConcurrencyRule rule, long nowMs) {
    this.rule = rule;
    this.shares = rule.shares().isEmpty() ? null : new Shares(rule.shares());
    this.windowMs = rule.window().toMillis();
    this.algorithm = LimitAlgorithm.of(rule);
    this.limit = rule.initialLimit();
    this.windowStart = new AtomicLong(nowMs);
    this.refusal = new RefusedException.AdaptiveConcurrency(resource, rule, this::limit);
  }

  /** Takes a place for a call if fewer calls than the limit are in flight. */
  boolean tryAcquire() {
    return tryAcquire("") >= 0;
  }

  /**
   * Takes a place for a call of an origin if fewer calls than the limit are in flight and the
   * origin's share allows it (see {@link Shares}).
   *
   * @param origin the caller's origin
   * @return the origin's share group (0 without shares), or -1 when refused
   */
  int tryAcquire(String origin) {
    Shares groups = shares;
    int group = groups == null ? 0 : groups.groupOf(origin);
    if (groups != null) {
      groups.seen(group);
    }
    while (true) {
      int running = inFlight.get();
      int now = limit;
      if (running >= now) {
        return -1;
      }
      if (groups != null && !groups.mayTake(group, running, now)) {
        return -1;
      }
      if (inFlight.compareAndSet(running, running + 1)) {
        if (groups != null) {
          groups.taken(group);
        }
        int after = running + 1;
        int seen = peak.get();
        while (after > seen && !peak.compareAndSet(seen, after)) {
          seen = peak.get();
        }
        return group;
      }
    }
  }

  /** Gives back the place of a call that never ran (a later protection refused it). */
  void release(int group) {
    inFlight.decrementAndGet();
    Shares groups = shares;
    if (groups != null) {
      groups.given(group);
    }
  }

  /**
   * Gives back the place of a call that ran, and counts its outcome.
   *
   * @param nowMs the exit time
   * @param rtMs the call's response time
   * @param failed whether it failed
   * @param group the call's share group, as {@link #tryAcquire(String)} returned it
   */
  void complete(long nowMs, long rtMs, boolean failed, int group) {
    release(group);
    if (failed) {
      failures.incrementAndGet();
    } else {
      successes.incrementAndGet();
      rtSumMs.addAndGet(rtMs);
    }
    long start = windowStart.get();
    if (start != CLAIMED && nowMs - start >= windowMs
        && windowStart.compareAndSet(start, CLAIMED)) {
      closeWindow(nowMs);
    }
  }

  private void closeWindow(long nowMs) {
    try {
      long ok = successes.getAndSet(0L);
      long failed = failures.getAndSet(0L);
      long rt = rtSumMs.getAndSet(0L);
      int used = peak.getAndSet(inFlight.get());
      int current = limit;
      int next = algorithm.next(current, used, ok, failed, rt);
      limit = Math.max(rule.minLimit(), Math.min(rule.maxLimit(), next));
      Shares groups = shares;
      if (groups != null) {
        groups.nextWindow();
      }
    } finally {
      windowStart.set(nowMs);
    }
  }

  /** The limit in force. */
  int limit() {
    return limit;
  }

  /** The calls in flight now. */
  int inFlight() {
    return inFlight.get();
  }

  /** Whether the limit in force re-measures the baseline, below the limit found. */
  boolean remeasuring() {
    return algorithm.remeasuring();
  }

  /** The best average response time the algorithm has seen in a window, in ms; 0 if none. */
  double baselineRtMs() {
    return algorithm.baselineRtMs();
  }

  /** The average response time of the last window that had successful calls, in ms; 0 if none. */
  double lastRtMs() {
    return algorithm.lastRtMs();
  }
}
