package dev.guard.engine.internal.flow;

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
}
