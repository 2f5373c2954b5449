package dev.guard.engine.internal.stat;

/** The additive events a {@link MetricBucket} counts. */
public enum MetricEvent {
  /** Admitted calls (permits). */
  PASS,
  /** Refused calls (permits). */
  REFUSE,
  /** Completed calls that ended with a traced business error. */
  EXCEPTION,
  /** Completed calls, whether they failed or not. */
  SUCCESS,
  /** The sum of response times of completed calls, in milliseconds. */
  RT,
  /** Passes borrowed from a future bucket by prioritized calls. */
  OCCUPIED_PASS
}
