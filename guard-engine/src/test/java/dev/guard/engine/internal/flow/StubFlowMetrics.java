package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.FlowMetrics;
import dev.guard.engine.internal.stat.WindowGeometry;

/** Node statistics fixed by the test, for decisions on given values (Sentinel's stubbed node). */
final class StubFlowMetrics implements FlowMetrics {

  volatile double passQps;
  volatile double previousPassQps;

  StubFlowMetrics(double passQps, double previousPassQps) {
    this.passQps = passQps;
    this.previousPassQps = previousPassQps;
  }

  @Override
  public double passQps(long nowMs) {
    return passQps;
  }

  @Override
  public double previousPassQps(long nowMs) {
    return previousPassQps;
  }

  @Override
  public long concurrency() {
    return 0;
  }

  @Override
  public WindowGeometry secondGeometry() {
    return WindowGeometry.SECOND_DEFAULT;
  }

  @Override
  public long tryOccupyNext(long nowMs, int permits, double threshold, long occupyTimeoutMs) {
    return occupyTimeoutMs; // this fake never lends a future bucket
  }
}
