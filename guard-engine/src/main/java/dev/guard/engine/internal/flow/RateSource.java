package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.FlowMetrics;

/**
 * Where a QPS rule's rate comes from: the rule's count ({@link #constant}), or a warm-up bucket
 * whose rate climbs from {@code count / coldFactor} to {@code count} as traffic flows ({@link
 * WarmUpTokens}). An admission style (fast reject in {@link RefuseController}, pacing in {@link
 * PacingController}) takes any rate source, so the four shapes of a QPS rule are two classes.
 */
interface RateSource {

  /**
   * The rate the rule admits now, in permits per second.
   *
   * @param node the statistics the rule measures (warm-up drains its bucket by their passes)
   * @param nowMs engine time in milliseconds
   * @return the rate
   */
  double rate(FlowMetrics node, long nowMs);

  /**
   * The rate most recently returned by {@link #rate} (the count before the first decision).
   *
   * @return the rate
   */
  double lastRate();

  /**
   * The rule's count: the rate once warm.
   *
   * @return the count
   */
  double count();

  /**
   * A rate that is always the rule's count.
   *
   * @param count permits per second; finite and {@code >= 0}
   * @return the source
   */
  static RateSource constant(double count) {
    double checked = ShapingChecks.count(count);
    return new RateSource() {
      @Override
      public double rate(FlowMetrics node, long nowMs) {
        return checked;
      }

      @Override
      public double lastRate() {
        return checked;
      }

      @Override
      public double count() {
        return checked;
      }

      @Override
      public String toString() {
        return "constant(" + checked + ")";
      }
    };
  }
}
