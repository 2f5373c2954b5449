package dev.guard.engine.internal.telemetry;

import dev.guard.api.PeriodStats;
import dev.guard.engine.internal.registry.EngineClock;
import dev.guard.engine.internal.registry.EngineParts;
import dev.guard.engine.internal.registry.ResourceRegistry;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What an engine remembers of its traffic: the per-second metrics history of every resource and
 * the refusal log, both filled from the resources' nodes when a second has closed. Collection runs
 * when someone reads the history, or once a second from the engines' recorder thread; never on
 * the call path.
 */
public final class Telemetry {

  private final EngineClock clock;
  private final ResourceRegistry resources;
  private final MetricsHistory history;
  private final RefusalLog refusalLog;

  /**
   * Creates the telemetry of an engine.
   *
   * @param parts the engine's shared parts
   * @param resources the engine's resources
   */
  public Telemetry(EngineParts parts, ResourceRegistry resources) {
    this.clock = parts.clock();
    this.resources = resources;
    this.history = new MetricsHistory(parts.config().historySeconds(),
        parts.config().historyBudget(), parts.overflows());
    this.refusalLog = new RefusalLog(parts.listeners(), parts.config().refusalLogger(),
        parts.config().refusalLogLines());
  }

  /** Records every second that closed and was not recorded yet. */
  public void collect() {
    history.collect(
        clock.preciseNowMs(), resources::forEachTracked, refusalLog.active() ? refusalLog : null);
  }

  /**
   * The recorded seconds of a resource in a time range, collecting first.
   *
   * @param resource the resource
   * @param fromMs the range's start in engine time
   * @param toMs the range's end (exclusive) in engine time
   * @return the seconds, oldest first
   */
  public List<PeriodStats> history(String resource, long fromMs, long toMs) {
    collect();
    return history.history(resource, fromMs, toMs);
  }

  /**
   * Every recorded second of a resource together, collecting first.
   *
   * @param resource the resource
   * @return the totals, or null if nothing was recorded for it
   */
  public @Nullable PeriodStats totals(String resource) {
    collect();
    return history.totals(resource);
  }

  /** The metrics history. */
  public MetricsHistory metricsHistory() {
    return history;
  }
}
