package dev.guard.spi;


/**
 * Where an engine reads the state of the machine for system protection: CPU usage and load, both
 * relative to the CPU this process may actually use (its container's CPU quota, not the host's
 * cores).
 *
 * <pre>{@code
 * SystemStatus host = GuardEngine.hostStatus();
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
}
