package dev.guard.engine.internal.node;

import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The statistics of one resource under one context name. It is created the first time the
 * resource is entered under that name and attached, for display, under the node that was current
 * then (the parent entry's node or the entrance node); it is never re-parented. Calls that count
 * on it are counted on the resource's {@link ClusterNode} too (see {@code CallPath}).
 */
public final class DefaultNode {

  private final String resource;
  private final StatisticNode stats;
  private final ClusterNode cluster;
  private final List<DefaultNode> children = new CopyOnWriteArrayList<>();

  /**
   * Creates the node.
   *
   * @param resource the resource name
   * @param geometry the second-level window geometry
   * @param cluster the resource's cluster node
   */
  public DefaultNode(String resource, WindowGeometry geometry, ClusterNode cluster) {
    this.resource = resource;
    this.stats = new StatisticNode(geometry);
    this.cluster = cluster;
  }

  /** The resource name. */
  public String resource() {
    return resource;
  }

  /** The statistics of this resource under this context. */
  public StatisticNode stats() {
    return stats;
  }

  /** The resource-wide node. */
  public ClusterNode cluster() {
    return cluster;
  }

  /** Child nodes (resources entered while this node's entry was current), for display. */
  public List<DefaultNode> children() {
    return children;
  }

  /**
   * Attaches a node under this one.
   *
   * @param child the child
   */
  public void adopt(DefaultNode child) {
    if (!children.contains(child)) {
      children.add(child);
    }
  }
}
