package dev.guard.api.rule;

/** Whose statistics a flow rule measures. */
public enum FlowStrategy {
  /** The protected resource itself (or the caller's origin node, per {@code limitApp}). */
  DIRECT,
  /** Another resource, named by {@code refResource}: limit this one when that one is busy. */
  RELATE,
  /**
   * Only calls made under the context (entrance) named by {@code refResource}, measured on this
   * resource's node for that context.
   */
  CHAIN
}
