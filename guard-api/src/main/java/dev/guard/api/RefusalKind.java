package dev.guard.api;

import java.util.Locale;

/**
 * The kind of protection that refused a call: one constant per {@link RefusedException} subtype.
 * Statistics count refusals per kind ({@link PeriodStats#refused(RefusalKind)}), and the refusal log
 * groups by it.
 */
public enum RefusalKind {
  /** A flow rule ({@link FlowRefusedException}). */
  FLOW,
  /** A per-value rule ({@link PerValueRefusedException}). */
  PER_VALUE,
  /** A circuit breaker ({@link CircuitBreakerRefusedException}). */
  CIRCUIT_BREAKER,
  /** System protection ({@link SystemRefusedException}). */
  SYSTEM,
  /** An origin white or black list ({@link OriginRefusedException}). */
  ORIGIN;


  private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

  /**
   * Returns the kind of a refusal.
   *
   * @param refusal the refusal
   * @return its kind
   */
  public static RefusalKind of(RefusedException refusal) {
    if (refusal instanceof FlowRefusedException) {
      return FLOW;
    }
    if (refusal instanceof PerValueRefusedException) {
      return PER_VALUE;
    }
    if (refusal instanceof CircuitBreakerRefusedException) {
      return CIRCUIT_BREAKER;
    }
    if (refusal instanceof SystemRefusedException) {
      return SYSTEM;
    }
    return ORIGIN;
  }

  /**
   * Returns the kind's name in lower case with dashes ({@code flow}, {@code per-value}, {@code
   * circuit-breaker}, {@code system}, {@code origin}): the value of metric tags and of the history line
   * format.
   *
   * @return the tag value
   */
  public String tag() {
    return tag;
  }
}
