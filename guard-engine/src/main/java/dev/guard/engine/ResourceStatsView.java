package dev.guard.engine;

import dev.guard.engine.internal.registry.ResourceState;
import dev.guard.engine.internal.EngineCore;
import dev.guard.engine.NodeStats;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.node.EntranceNode;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Live views of a resource's nodes, of the inbound node and of entrance nodes. */
final class ResourceStatsView extends StatsView implements NodeStats {

  private final EngineCore core;
  private final String resource;

  private ResourceStatsView(EngineCore core, String resource) {
    super(core, () -> clusterOf(core, resource));
    this.core = core;
    this.resource = resource;
  }

  /**
   * The statistics of a resource (zero while unknown).
   *
   * @param core the engine
   * @param resource the resource name
   * @return a live view
   */
  public static NodeStats of(EngineCore core, String resource) {
    return new ResourceStatsView(core, resource);
  }

  /**
   * The statistics of the engine's inbound traffic.
   *
   * @param core the engine
   * @return a live view
   */
  public static NodeStats inbound(EngineCore core) {
    return new StatsView(core, () -> List.of(core.inbound()));
  }

  /**
   * The statistics of an entrance: the sums over its children.
   *
   * @param core the engine
   * @param name the entrance's name
   * @return a live view, if the entrance is known
   */
  public static Optional<NodeStats> ofEntrance(EngineCore core, String name) {
    EntranceNode node = core.entrance(name);
    if (node == null) {
      return Optional.empty();
    }
    return Optional.of(new StatsView(core, () -> statsOf(node.children())));
  }

  private static List<StatisticNode> statsOf(List<DefaultNode> nodes) {
    List<StatisticNode> stats = new ArrayList<>(nodes.size());
    for (DefaultNode node : nodes) {
      stats.add(node.stats());
    }
    return stats;
  }

  private static List<StatisticNode> clusterOf(EngineCore core, String resource) {
    ResourceState state = core.existing(resource);
    ClusterNode cluster = state == null ? null : state.cluster();
    return cluster == null ? List.of() : List.of(cluster.stats());
  }

  @Override
  public Optional<String> resource() {
    return Optional.of(resource);
  }

  @Override
  public Optional<NodeStats> origin(String origin) {
    ResourceState state = core.existing(resource);
    ClusterNode cluster = state == null ? null : state.cluster();
    StatisticNode node = cluster == null ? null : cluster.existingOriginNode(origin);
    return node == null ? Optional.empty() : Optional.of(new StatsView(core, () -> List.of(node)));
  }

  @Override
  public Set<String> origins() {
    ResourceState state = core.existing(resource);
    ClusterNode cluster = state == null ? null : state.cluster();
    if (cluster == null) {
      return Set.of();
    }
    Set<String> names = new TreeSet<>();
    cluster.forEachOrigin((origin, node) -> names.add(origin));
    return Collections.unmodifiableSet(names);
  }

  @Override
  public Optional<NodeStats> context(String entrance) {
    ResourceState state = core.existing(resource);
    DefaultNode node = state == null ? null : state.existingNodeFor(entrance);
    return node == null
        ? Optional.empty()
        : Optional.of(new StatsView(core, () -> List.of(node.stats())));
  }
}
