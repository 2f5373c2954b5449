package dev.guard.api;

/**
 * The direction of the traffic an entry represents.
 *
 * <p>The entry type of each call (not of the resource) decides whether the engine's global
 * inbound statistics record it and whether system protection applies to it. Both the low-level
 * entry API and the {@code Guard} DSL default to {@link #OUT}; mark calls that serve requests
 * arriving at this service as {@link #IN}.
 */
public enum EntryType {
  /** Traffic arriving at this service: counted in the global inbound statistics. */
  IN,
  /** A call this service makes: not counted in the global inbound statistics. */
  OUT
}
