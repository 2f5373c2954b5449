package dev.guard.engine;

/**
 * The bounded collections of an engine. When one is full the engine applies the policy documented
 * on each constant, counts the event ({@link GuardEngine#overflows(Cap)}) and tells its {@link
 * EngineListener}s; it is never silent.
 */
public enum Cap {
  /**
   * Resources with statistics. Entering an unknown resource when full admits the call without
   * statistics or checks; loading rules for an unknown resource when full throws {@link
   * IllegalStateException}, so configured protection is never dropped.
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
  ORIGINS
}
