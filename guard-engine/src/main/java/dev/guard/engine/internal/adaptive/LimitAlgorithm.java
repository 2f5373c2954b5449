package dev.guard.engine.internal.adaptive;

import dev.guard.api.rule.AdaptiveConcurrencyRule;

/**
 * How a limit moves from one window to the next (docs/BEHAVIOUR.md, "Adaptive concurrency").
 * Called by one thread at a time, the one that closed the window; the fields it reads for views
 * are volatile. The limit is kept as a real number between windows, so that steps smaller than one
 * call add up; the limit in force is that number rounded, within the rule's bounds.
 */
abstract class LimitAlgorithm {

  /** The smallest response time the algorithms compare, in ms: the statistics' grain. */
  static final double MIN_RT_MS = 1.0;

  /** Windows between two re-measurements of the gradient's baseline: {@value}. */
  static final int REMEASURE_EVERY = 100;

  /** The share of the limit a re-measurement holds the calls in flight to: {@value}. */
  static final double REMEASURE_SHARE = 0.75;

  /**
   * A limit that fell to this share of the highest it reached since the baseline was measured
   * re-measures as soon as it stops falling, without waiting for {@link #REMEASURE_EVERY}: {@value}.
   */
  static final double COLLAPSED_SHARE = 0.25;

  protected final AdaptiveConcurrencyRule rule;
  protected double exact;
  private volatile double baselineRtMs;
  private volatile double lastRtMs;
  private volatile boolean remeasuring;
  private int windowsSinceRemeasure;
  private int highestSinceMeasured;
  private int remeasureWindowsLeft;

  LimitAlgorithm(AdaptiveConcurrencyRule rule) {
    this.rule = rule;
    this.exact = rule.initialLimit();
  }

  static LimitAlgorithm of(AdaptiveConcurrencyRule rule) {
    return switch (rule.algorithm()) {
      case GRADIENT -> new Gradient(rule);
      case AIMD -> new Aimd(rule);
    };
  }

  /**
   * The next limit.
   *
   * @param limit the limit in force during the window
   * @param peak the most calls in flight at once during the window
   * @param successes calls that ended without failure
   * @param failures calls that failed
   * @param rtSumMs the response times of the successful calls, summed
   * @return the limit for the next window, before the rule's bounds are applied
   */
  final int next(int limit, int peak, long successes, long failures, long rtSumMs) {
    if (remeasureWindowsLeft > 0) {
      return remeasured(successes, rtSumMs);
    }
    if (successes + failures == 0) {
      return limit;
    }
    if (successes > 0) {
      double rt = Math.max(MIN_RT_MS, (double) rtSumMs / successes);
      lastRtMs = rt;
      double best = baselineRtMs;
      baselineRtMs = best == 0.0 ? rt : Math.min(best, rt);
    }
    boolean used = 2L * peak >= limit;
    exact = Math.max(rule.minLimit(), Math.min(rule.maxLimit(),
        step(exact, used, successes, failures)));
    int next = (int) Math.round(exact);
    // re-measure only once the limit has stopped falling: while it falls, the calls still queue
    if (remeasuresBaseline() && remeasureDue(next) && next >= limit) {
      windowsSinceRemeasure = 0;
      remeasureWindowsLeft = 2;
      remeasuring = true;
      return remeasureLimit();
    }
    return next;
  }

  /**
   * Counts a window towards the next re-measurement; true when one is due: the {@link
   * #REMEASURE_EVERY}th window, or a limit that collapsed to {@link #COLLAPSED_SHARE} of its high.
   */
  private boolean remeasureDue(int next) {
    highestSinceMeasured = Math.max(highestSinceMeasured, next);
    return ++windowsSinceRemeasure >= REMEASURE_EVERY
        || next <= COLLAPSED_SHARE * highestSinceMeasured;
  }

  /**
   * A window of a re-measurement closed: the first lets the calls admitted above its limit
   * drain, the second measures; its average becomes the baseline (kept when no call succeeded in
   * it), and the limit the algorithm had reached is in force again.
   */
  private int remeasured(long successes, long rtSumMs) {
    if (--remeasureWindowsLeft > 0) {
      return remeasureLimit();
    }
    if (successes > 0) {
      double rt = Math.max(MIN_RT_MS, (double) rtSumMs / successes);
      lastRtMs = rt;
      baselineRtMs = rt;
    }
    remeasuring = false;
    highestSinceMeasured = (int) Math.round(exact);
    return highestSinceMeasured;
  }

  private int remeasureLimit() {
    return Math.max(rule.minLimit(), (int) Math.ceil(REMEASURE_SHARE * Math.round(exact)));
  }

  /** Whether the algorithm re-measures its baseline now and then (the gradient does). */
  boolean remeasuresBaseline() {
    return false;
  }

  /** Whether the limit in force is a re-measurement's, below the limit the algorithm reached. */
  boolean remeasuring() {
    return remeasuring;
  }

  /** The next limit as a real number, from the window's figures. */
  abstract double step(double current, boolean used, long successes, long failures);

  double baselineRtMs() {
    return baselineRtMs;
  }

  double lastRtMs() {
    return lastRtMs;
  }

  /** The share of the limit the gradient algorithm allows to queue: {@value}. */
  static final double HEADROOM = 0.05;

  /** The headroom over a limit: {@value #HEADROOM} of it, at least one call. */
  static double headroom(double limit) {
    return Math.max(1.0, HEADROOM * limit);
  }

  /**
   * The gradient algorithm: {@code g = clamp(baseline / rt, 0.5, 1)}, lowered to {@code 1 -
   * failureRatio} when calls failed; the target is {@code limit × g + headroom(limit)}. A target
   * below the limit is approached halfway per window; one above it is taken when the window used
   * at least half the limit, else the limit stays.
   */
  static final class Gradient extends LimitAlgorithm {

    Gradient(AdaptiveConcurrencyRule rule) {
      super(rule);
    }

    @Override
    boolean remeasuresBaseline() {
      return true;
    }

    @Override
    double step(double current, boolean used, long successes, long failures) {
      double gradient = successes == 0 ? 0.5 : clamp(baselineRtMs() / lastRtMs());
      if (failures > 0) {
        gradient = Math.min(gradient, clamp(1.0 - (double) failures / (successes + failures)));
      }
      double target = current * gradient + headroom(current);
      if (target < current) {
        return current + (target - current) / 2.0;
      }
      return used ? target : current;
    }

    private static double clamp(double gradient) {
      return Math.max(0.5, Math.min(1.0, gradient));
    }
  }

  /**
   * Additive increase, multiplicative decrease: a window with a failure, or with an average
   * response time over the rule's {@code slowerThan} (when set), multiplies the limit by {@value
   * #BACKOFF}; any other window that used at least half the limit adds one.
   */
  static final class Aimd extends LimitAlgorithm {

    static final double BACKOFF = 0.9;

    private final long slowerThanMs;

    Aimd(AdaptiveConcurrencyRule rule) {
      super(rule);
      this.slowerThanMs = rule.slowerThan().toMillis();
    }

    @Override
    double step(double current, boolean used, long successes, long failures) {
      boolean slow = slowerThanMs > 0 && successes > 0 && lastRtMs() > slowerThanMs;
      if (failures > 0 || slow) {
        return current * BACKOFF;
      }
      return used ? current + 1.0 : current;
    }
  }
}
