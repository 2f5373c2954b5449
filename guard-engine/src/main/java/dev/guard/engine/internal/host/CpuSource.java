package dev.guard.engine.internal.host;

/**
 * Where the CPU time used by the process's share of the machine is read, and how many CPUs that
 * share may use. CPU usage is the CPU time used between two readings divided by the wall time
 * between them times the usable CPUs.
 */
interface CpuSource {

  /** Which source this is and what it reads, for people. */
  String description();

  /** CPU time used so far, in nanoseconds; negative when it cannot be read now. */
  long cpuNanos();

  /** The CPUs a quota allows, {@link Double#POSITIVE_INFINITY} without a quota. */
  double quotaCpus();

  /**
   * A usage the source reports by itself, in [0, 1], combined with the measured one by taking the
   * larger; negative when it has none.
   */
  default double reportedUsage() {
    return -1;
  }
}
