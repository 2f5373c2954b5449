package dev.guard.api.rule;

/**
 * The thresholds of a {@link SystemRule}, in the order an engine checks them; a {@link
 * dev.guard.api.SystemRefusedException} names the one that refused a call.
 */
public enum SystemLimit {
  /** Inbound calls per second ({@link SystemRule#maxInboundQps()}). */
  QPS,
  /** Inbound calls running at once ({@link SystemRule#maxConcurrency()}). */
  CONCURRENCY,
  /** Average response time of inbound calls ({@link SystemRule#maxAverageRt()}). */
  RT,
  /** System load per usable CPU, with the capacity test ({@link SystemRule#maxSystemLoad()}). */
  LOAD,
  /** CPU usage of the CPU the process may use ({@link SystemRule#maxCpuUsage()}). */
  CPU
}
