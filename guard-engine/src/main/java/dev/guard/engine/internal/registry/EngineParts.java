package dev.guard.engine.internal.registry;

import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.system.SystemProtection;
import dev.guard.spi.EngineListener;
import dev.guard.spi.SystemStatus;
import dev.guard.spi.TimeSource;
import dev.guard.spi.TokenService;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What every part of one engine shares: its time, configuration, listeners, overflow counts,
 * internal-error reports, system protection, inbound node and token service.
 *
 * @param clock the engine's time
 * @param config the engine's configuration
 * @param listeners the engine's listeners
 * @param overflows the engine's cap overflow counts
 * @param internalErrors where internal errors are reported
 * @param system the engine's system protection
 * @param inbound the node of every inbound call
 * @param tokenService the cluster token service, or null
 */
public record EngineParts(
    EngineClock clock,
    EngineConfig config,
    Listeners listeners,
    Overflows overflows,
    InternalErrors internalErrors,
    SystemProtection system,
    StatisticNode inbound,
    @Nullable TokenService tokenService) {

  /**
   * Builds the shared parts of a new engine.
   *
   * @param time the time source
   * @param config the configuration
   * @param listeners the listeners
   * @param status where system protection reads CPU usage and load
   * @param tokenService the cluster token service, or null
   * @return the parts
   */
  public static EngineParts of(TimeSource time, EngineConfig config,
      List<EngineListener> listeners, SystemStatus status, @Nullable TokenService tokenService) {
    Listeners all = new Listeners(listeners);
    return new EngineParts(new EngineClock(time), config, all, new Overflows(all),
        new InternalErrors(all), new SystemProtection(status),
        new StatisticNode(config.secondWindow()), tokenService);
  }
}
