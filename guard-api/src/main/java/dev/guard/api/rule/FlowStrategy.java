package dev.guard.api.rule;

/** Whose statistics a flow rule measures. */
public enum FlowStrategy {
  /** The protected resource itself (or the caller's origin node, per {@code origin}). */
  DIRECT,
  /** Another resource, named by {@code reference}: limit this one when that one is busy. */
  RELATED,
  /**
   * Only calls made under the context (entrance) named by {@code reference}, measured on this
   * resource's node for that context.
   */
  ENTRANCE
}
