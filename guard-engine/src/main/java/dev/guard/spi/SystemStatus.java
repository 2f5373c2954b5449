package dev.guard.spi;


/**
 * Where an engine reads the state of the machine for system protection: CPU usage and load, both
 * relative to the CPU this process may actually use (its container's CPU quota, not the host's
 * cores).
 *
 * <pre>{@code
 * SystemStatus host = SystemStatus.host();
 * log.info("CPU source: {}; usage {}, load per CPU {}", host.source(), host.cpuUsage(), host.systemLoad());
 *
 * GuardEngine engine = GuardEngine.builder().systemStatus(host).build();  // the default
 * }</pre>
 *
 * <p>The engine reads {@link #cpuUsage()} and {@link #systemLoad()} on the call path of inbound
 * calls while a system rule sets a CPU or load threshold, so implementations must be thread-safe
 * and cheap (return a value sampled elsewhere). A negative reading means "unknown": the threshold
 * that needs it does not refuse calls. Tests use the test kit's {@code FakeSystemStatus}.
 */
public interface SystemStatus {

  /**
   * Returns the recent CPU usage as a share of the CPU the process may use: 1.0 means the
   * process's container (or, without one, the machine) is using all the CPU it is allowed.
   *
   * @return the usage in {@code [0, 1]}, or a negative value when unknown
   */
  double cpuUsage();

  /**
   * Returns the system's 1-minute load average divided by the number of CPUs the process may use:
   * 1.0 means as many runnable threads as usable CPUs.
   *
   * @return the load per usable CPU ({@code >= 0}), or a negative value when unknown
   */
  double systemLoad();

  /**
   * Describes where the readings come from, such as {@code "cgroup v2 (/sys/fs/cgroup/cpu.stat,
   * CPU quota 1.5 CPUs)"}, for logs and diagnostics.
   *
   * @return a description for people
   */
  String source();

  /**
   * Returns the status of the machine this JVM runs on, shared by every engine that uses it.
   *
   * <p>CPU usage comes from the first source that works: the process's cgroup v1 ({@code
   * cpuacct.usage}, quota {@code cpu.cfs_quota_us / cpu.cfs_period_us}), its cgroup v2 ({@code
   * cpu.stat}, quota {@code cpu.max}), else {@code OperatingSystemMXBean} (the larger of the
   * process's CPU time share and the system CPU load); load is {@code
   * OperatingSystemMXBean.getSystemLoadAverage()} per usable CPU. A daemon thread samples both
   * once a second while engines read them and ends after three samples in a row that nobody read,
   * so nothing runs while system protection is idle; the next reading starts it again (values
   * read unknown until the first new sample, CPU usage until the second). See {@code docs/BEHAVIOUR.md}.
   *
   * @return the host's status
   */
  static SystemStatus host() {
    return HostSystemStatus.shared();
  }
}
