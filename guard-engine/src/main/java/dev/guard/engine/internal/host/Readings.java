package dev.guard.engine.internal.host;

import org.jspecify.annotations.Nullable;

/**
 * The arithmetic of a sample, as pure functions: the usable CPUs are the smaller of the cgroup
 * quota and the processors the JVM may use; CPU usage is the CPU time used between two readings
 * over the wall time between them times the usable CPUs, clamped to [0, 1], or the usage the
 * source reports by itself if that is larger; load is the 1-minute load average per usable CPU.
 * Unknown inputs give -1.
 */
final class Readings {

  private Readings() {}

  /** What one sample reads. */
  record Reading(long wallNanos, long cpuNanos, double usableCpus, double loadAverage,
      double reportedUsage) {}

  static Reading take(CpuSource source, OsProbe os, long wallNanos) {
    double usable = usableCpus(source.quotaCpus(), os.availableProcessors());
    return new Reading(wallNanos, source.cpuNanos(), usable, os.loadAverage(),
        source.reportedUsage());
  }

  static double usableCpus(double quotaCpus, int availableProcessors) {
    return Math.min(quotaCpus, Math.max(1, availableProcessors));
  }

  static double cpuUsage(@Nullable Reading previous, Reading now) {
    double measured = -1;
    if (previous != null && previous.cpuNanos() >= 0 && now.cpuNanos() >= 0) {
      long wall = now.wallNanos() - previous.wallNanos();
      long used = now.cpuNanos() - previous.cpuNanos();
      if (wall > 0 && used >= 0) {
        measured = Math.min(1.0, used / (wall * now.usableCpus()));
      }
    }
    double reported = now.reportedUsage();
    return reported >= 0 ? Math.max(measured, Math.min(1.0, reported)) : measured;
  }

  static double loadPerCpu(Reading now) {
    return now.loadAverage() < 0 ? -1 : now.loadAverage() / now.usableCpus();
  }
}
