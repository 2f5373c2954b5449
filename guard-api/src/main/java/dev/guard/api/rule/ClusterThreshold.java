package dev.guard.api.rule;

/** How a cluster-mode flow rule's {@code threshold} becomes the threshold shared by the cluster. */
public enum ClusterThreshold {
  /** {@code threshold} is the threshold of the whole cluster. */
  GLOBAL,
  /**
   * {@code threshold} is per instance: the cluster threshold is {@code threshold} times the instances
   * currently connected to the token service (at least 1: the asking instance counts itself).
   */
  PER_INSTANCE
}
