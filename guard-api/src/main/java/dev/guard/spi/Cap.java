package dev.guard.spi;

/**
 * The bounded collections of an engine. When one is full the engine applies the policy documented
 * on each constant, counts the event ({@code GuardEngine#overflows(Cap)}) and tells its {@link
 * EngineListener}s; it is never silent.
 */
public enum Cap {
  /**
   * Resources with statistics. Entering an unknown resource when full runs the call on the one
   * shared {@code GuardEngine#OVERFLOW_RESOURCE}: engine-wide rules and the overflow resource's
   * own rules decide it, and it is measured there and in the inbound statistics. Loading rules for
   * an unknown resource when full throws {@link IllegalStateException}, so configured protection
   * is never dropped.
   */
  RESOURCES,
  /**
   * Distinct context (entrance) names. Entering a context with a new name when full runs the
   * calls in the default context instead: rules still apply, only the per-entrance statistics are
   * merged.
   */
  CONTEXTS,
  /**
   * Distinct origins per resource. Calls from a new origin when full are measured without an
   * origin node: rules for {@code default} still apply, origin-specific rules do not match them.
   */
  ORIGINS,
  /**
   * Values remembered per per-value rule ({@code PerValueRule.maxValues}). When a new value
   * does not fit, the values used least recently are forgotten: a forgotten value starts over as
   * if never seen (a full token bucket, no pacing schedule). Each forgotten value counts once, and
   * listeners hear of it with the resource's name (never the value). Values with calls running
   * under a per-value concurrency limit are never forgotten.
   */
  VALUES,
  /**
   * Seconds held by the metrics history of all resources together ({@code
   * GuardEngine.Builder.metricsHistory}). A resource whose history cannot grow keeps the seconds it has
   * room for and overwrites its oldest (a shorter span for that resource); its totals stay exact.
   * Reported once per resource, with an empty name.
   */
  HISTORY
}
