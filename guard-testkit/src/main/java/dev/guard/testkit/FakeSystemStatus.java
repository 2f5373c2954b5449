package dev.guard.testkit;

import dev.guard.testkit.internal.DurationArguments;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.SystemStatus;

/**
 * A {@link SystemStatus} whose CPU usage and load the test sets, for testing system protection
 * without a real overloaded machine. Both start unknown (-1), so CPU and load thresholds refuse
 * nothing until the test sets a value.
 *
 * <pre>{@code
 * FakeSystemStatus status = new FakeSystemStatus();
 * GuardEngine engine = GuardEngine.builder().clock(clock).systemStatus(status).build();
 * engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxCpuUsage(0.8))));
 *
 * status.cpuUsage(0.95);   // inbound calls are refused from now on
 * status.cpuUsage(0.5);    // and admitted again
 * }</pre>
 *
 * <p>Thread-safe: a value set on one thread is seen by calls on every thread afterwards.
 */
public final class FakeSystemStatus implements SystemStatus {

  private volatile double cpuUsage = -1;
  private volatile double systemLoad = -1;

  /** Creates a status with both readings unknown. */
  public FakeSystemStatus() {}

  /**
   * Sets the CPU usage the engine reads.
   *
   * @param usage a share of the usable CPU in {@code [0, 1]}, or a negative value for unknown
   * @return this status
   * @throws IllegalArgumentException if {@code usage} is NaN or above 1
   */
  public FakeSystemStatus cpuUsage(double usage) {
    if (Double.isNaN(usage) || usage > 1) {
      throw DurationArguments.invalid("cpuUsage", usage, "must be at most 1 (negative: unknown)");
    }
    cpuUsage = usage;
    return this;
  }

  /**
   * Sets the load (1-minute load average per usable CPU) the engine reads.
   *
   * @param loadPerCpu the load, or a negative value for unknown
   * @return this status
   * @throws IllegalArgumentException if {@code loadPerCpu} is NaN or infinite
   */
  public FakeSystemStatus systemLoad(double loadPerCpu) {
    if (Double.isNaN(loadPerCpu) || Double.isInfinite(loadPerCpu)) {
      throw DurationArguments.invalid("systemLoad", loadPerCpu, "must be finite (negative: unknown)");
    }
    systemLoad = loadPerCpu;
    return this;
  }

  @Override
  public double cpuUsage() {
    return cpuUsage;
  }

  @Override
  public double systemLoad() {
    return systemLoad;
  }

  @Override
  public String source() {
    return "fake (set by the test)";
  }

  @Override
  public String toString() {
    return "FakeSystemStatus[cpuUsage=" + cpuUsage + ", systemLoad=" + systemLoad + "]";
  }
}
