package dev.guard.engine.internal.node;

import dev.guard.engine.internal.stat.RefusalKindCounts;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The resource-wide statistics of one resource, shared by all contexts, with one origin node per
 * calling origin. The origin map is bounded: when it is full, a new origin gets no node and the
 * caller is told so (it reports the overflow).
 */
public final class ClusterNode {

  private final StatisticNode stats;
  private final WindowGeometry geometry;
  private final ConcurrentHashMap<String, StatisticNode> origins = new ConcurrentHashMap<>();
  private final AtomicInteger originCount = new AtomicInteger();
  private final int maxOrigins;
  private volatile @Nullable RefusalKindCounts refusalKinds;

  /**
   * Creates the node.
   *
   * @param geometry the second-level window geometry
   * @param maxOrigins the most origin nodes
   */
  public ClusterNode(WindowGeometry geometry, int maxOrigins) {
    this.geometry = geometry;
    this.stats = new StatisticNode(geometry);
    this.maxOrigins = maxOrigins;
  }

  /**
   * Counts refused permits per second and kind, created at the first refusal.
   *
   * @param kinds the number of kinds
   * @return the counts
   */
  public RefusalKindCounts refusalKinds(int kinds) {
    RefusalKindCounts counts = refusalKinds;
    if (counts == null) {
      synchronized (this) {
        counts = refusalKinds;
        if (counts == null) {
          counts = new RefusalKindCounts(kinds);
          refusalKinds = counts;
        }
      }
    }
    return counts;
  }

  /**
   * The refusals per second and kind, if the resource was ever refused.
   *
   * @return the counts or null
   */
  public @Nullable RefusalKindCounts existingRefusalKinds() {
    return refusalKinds;
  }

  /** The resource-wide statistics. */
  public StatisticNode stats() {
    return stats;
  }

  /**
   * Finds or creates the node of an origin.
   *
   * @param origin a non-empty origin
   * @return the origin's node, or null if the origin map is full
   */
  public @Nullable StatisticNode originNode(String origin) {
    StatisticNode node = origins.get(origin);
    if (node != null) {
      return node;
    }
    if (originCount.incrementAndGet() > maxOrigins) {
      originCount.decrementAndGet();
      return origins.get(origin);
    }
    StatisticNode created = new StatisticNode(geometry);
    StatisticNode raced = origins.putIfAbsent(origin, created);
    if (raced != null) {
      originCount.decrementAndGet();
      return raced;
    }
    return created;
  }

  /**
   * Visits every origin node.
   *
   * @param visitor receives each origin and its node
   */
  public void forEachOrigin(java.util.function.BiConsumer<String, StatisticNode> visitor) {
    origins.forEach(visitor);
  }

  /**
   * Returns the node of an origin if it exists.
   *
   * @param origin the origin
   * @return its node or null
   */
  public @Nullable StatisticNode existingOriginNode(String origin) {
    return origins.get(origin);
  }
}
