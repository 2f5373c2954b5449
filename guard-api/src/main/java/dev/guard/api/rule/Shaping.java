package dev.guard.api.rule;

/**
 * How a QPS flow rule admits calls once its rate is reached. The rate itself is the rule's threshold,
 * or a warm-up rate when the rule has a {@link WarmUp}: each behaviour works with either.
 */
public enum Shaping {
  /** Refuse at once when the rate is reached. */
  REFUSE,
  /** Space admitted calls {@code 1 / rate} seconds apart, queueing up to a bound. */
  PACING
}
