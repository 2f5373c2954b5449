package dev.guard.api.rule;

/** How a cluster-mode flow rule's {@code count} becomes the threshold shared by the cluster. */
public enum ClusterThreshold {
  /** {@code count} is the threshold of the whole cluster. */
  GLOBAL,
  /**
   * {@code count} is per instance: the cluster threshold is {@code count} times the instances
   * currently connected to the token service (at least 1: the asking instance counts itself).
   */
  PER_INSTANCE
}
