package dev.guard.api.rule;

/** What a flow rule's {@code threshold} limits. */
public enum FlowMetric {
  /** Passed calls per second, measured over the engine's second-level window. */
  QPS,
  /** Calls running at the same time (the live concurrency gauge). */
  CONCURRENCY
}
