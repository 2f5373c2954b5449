package dev.guard.engine.internal.host;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * What the JVM reports about the operating system, behind an interface so that tests can stand in
 * for a platform that reports nothing. Every reading is negative when unavailable.
 */
interface OsProbe {

  /** The 1-minute load average of the whole system. */
  double loadAverage();

  /** CPU time used by this process so far, in nanoseconds. */
  long processCpuNanos();

  /** The share of the CPU in use by the whole system, in [0, 1]. */
  double systemCpuLoad();

  /** The processors the JVM may use (the JVM accounts for container limits and CPU sets). */
  int availableProcessors();

  /** The probe of the running JVM: {@link OperatingSystemMXBean} and its JDK extension. */
  static OsProbe platform() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    com.sun.management.OperatingSystemMXBean extended =
        os instanceof com.sun.management.OperatingSystemMXBean
            ? (com.sun.management.OperatingSystemMXBean) os
            : null;
    return new OsProbe() {
      @Override
      public double loadAverage() {
        return os.getSystemLoadAverage();
      }

      @Override
      public long processCpuNanos() {
        return extended == null ? -1 : extended.getProcessCpuTime();
      }

      @Override
      public double systemCpuLoad() {
        return extended == null ? -1 : extended.getCpuLoad();
      }

      @Override
      public int availableProcessors() {
        return Runtime.getRuntime().availableProcessors();
      }
    };
  }
}
