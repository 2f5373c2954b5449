package dev.guard.engine.internal.telemetry;

import dev.guard.api.RefusedException;
import dev.guard.spi.EngineListener;
import dev.guard.engine.internal.registry.Listeners;
import dev.guard.api.PeriodStats;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The refusal log (docs/BEHAVIOUR.md, "Refusal log"): for every recorded second in which a resource
 * refused calls, one {@link EngineListener.Refusals} to the listeners and, when a logger is set, one line,
 * at most {@code maxLines} lines per recording pass (a pass covers the seconds that closed since
 * the previous one, and runs at most once a second); the rest are summed up in one more line.
 * Runs under the history's recording lock, never on the call path.
 */
final class RefusalLog implements MetricsHistory.SecondSink {

  private final Listeners listeners;
  private final System.@Nullable Logger logger;
  private final int maxLines;
  private final long[] second = new long[StatisticNode.SECOND_FIELDS];
  private int lines;
  private int suppressed;

  RefusalLog(Listeners listeners, System.@Nullable Logger logger, int maxLines) {
    this.listeners = listeners;
    this.logger = logger;
    this.maxLines = maxLines;
  }

  /** Whether anything listens; without listeners or a logger recording skips the refusal log. */
  boolean active() {
    return logger != null || !listeners.none();
  }

  @Override
  public void second(String resource, ClusterNode node, PeriodStats stats) {
    if (stats.refused() == 0) {
      return;
    }
    Map<RefusedException.Kind, Long> byKind = new EnumMap<>(RefusedException.Kind.class);
    for (RefusedException.Kind kind : RefusedException.Kind.values()) {
      if (stats.refused(kind) > 0) {
        byKind.put(kind, stats.refused(kind));
      }
    }
    Map<String, Long> byOrigin = new HashMap<>();
    node.forEachOrigin((origin, originNode) -> {
      originNode.readSecond(stats.fromMs(), second);
      if (second[StatisticNode.BLOCK] > 0) {
        byOrigin.put(origin, second[StatisticNode.BLOCK]);
      }
    });
    EngineListener.Refusals entry = new EngineListener.Refusals(resource, stats.fromMs(), stats.refused(), byKind,
        byOrigin);
    listeners.tell(EngineListener::onRefusals, entry);
    System.Logger log = logger;
    if (log != null) {
      if (lines < maxLines) {
        lines++;
        log.log(System.Logger.Level.INFO, line(entry));
      } else {
        suppressed++;
      }
    }
  }

  @Override
  public void passDone() {
    System.Logger log = logger;
    if (log != null && suppressed > 0) {
      log.log(System.Logger.Level.INFO, "guard refusals: " + suppressed
          + " more resource-seconds with refusals not logged (at most " + maxLines + " lines a second)");
    }
    lines = 0;
    suppressed = 0;
  }

  /** {@code guard refusals: resource=orders second=61 refused=12 flow=10 origin=2 origins={bot=2}}. */
  static String line(EngineListener.Refusals entry) {
    StringBuilder line = new StringBuilder("guard refusals: resource=").append(entry.resource())
        .append(" second=").append(entry.secondMs() / 1000).append(" refused=")
        .append(entry.refused());
    for (RefusedException.Kind kind : RefusedException.Kind.values()) {
      Long count = entry.byKind().get(kind);
      if (count != null) {
        line.append(' ').append(kind.tag()).append('=').append(count);
      }
    }
    if (!entry.byOrigin().isEmpty()) {
      line.append(" origins=").append(new java.util.TreeMap<>(entry.byOrigin()));
    }
    return line.toString();
  }
}
