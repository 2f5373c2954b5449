package dev.guard.engine.internal.host;

import java.util.concurrent.atomic.AtomicLong;

/** An {@link OsProbe} whose readings the test sets; negative readings mean "not reported". */
final class FixedProbe implements OsProbe {

  volatile double loadAverage;
  final AtomicLong processCpuNanos;
  volatile double systemCpuLoad;
  final int processors;

  FixedProbe(double loadAverage, long processCpuNanos, double systemCpuLoad, int processors) {
    this.loadAverage = loadAverage;
    this.processCpuNanos = new AtomicLong(processCpuNanos);
    this.systemCpuLoad = systemCpuLoad;
    this.processors = processors;
  }

  /** A platform that reports nothing. */
  static FixedProbe silent() {
    return new FixedProbe(-1, -1, -1, 4);
  }

  @Override
  public double loadAverage() {
    return loadAverage;
  }

  @Override
  public long processCpuNanos() {
    return processCpuNanos.get();
  }

  @Override
  public double systemCpuLoad() {
    return systemCpuLoad;
  }

  @Override
  public int availableProcessors() {
    return processors;
  }
}
