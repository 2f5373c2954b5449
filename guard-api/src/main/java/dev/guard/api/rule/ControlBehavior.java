package dev.guard.api.rule;

/** How a QPS flow rule shapes traffic once the limit is near. */
public enum ControlBehavior {
  /** Refuse at once when the limit is reached. */
  REJECT,
  /** Start at {@code count / coldFactor} when cold and climb to {@code count} over the period. */
  WARM_UP,
  /** Space admitted calls {@code 1 / count} seconds apart, queueing up to a bound. */
  PACING,
  /** Pacing whose spacing follows the warm-up rate. */
  WARM_UP_PACING
}
