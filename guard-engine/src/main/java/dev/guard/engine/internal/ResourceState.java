package dev.guard.engine.internal;

import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Everything an engine holds for one resource: its cluster node, its per-context nodes and its
 * compiled chain. The chain is replaced atomically when the resource's rules change; statistics
 * are never replaced.
 */
public final class ResourceState {

  private final String name;
  private final @Nullable ClusterNode cluster;
  private final ConcurrentHashMap<String, DefaultNode> contextNodes = new ConcurrentHashMap<>();
  private final @Nullable WindowGeometry geometry;
  private volatile Chain chain = Chain.EMPTY;
  /** A chain waiting for its rule set's publication; null outside {@link RuleBook#apply}. */
  private volatile @Nullable Staged staged;
  private volatile @Nullable ContextNode lastUsed;

  /** The per-context node used last, with its entrance: most resources see one context. */
  private record ContextNode(Entrance entrance, DefaultNode node) {}

  private ResourceState(String name, @Nullable WindowGeometry geometry, int maxOrigins) {
    this.name = name;
    this.geometry = geometry;
    this.cluster = geometry == null ? null : new ClusterNode(geometry, maxOrigins);
  }

  static ResourceState tracked(String name, WindowGeometry geometry, int maxOrigins) {
    return new ResourceState(name, geometry, maxOrigins);
  }

  static ResourceState untracked(String name) {
    return new ResourceState(name, null, 0);
  }

  /** The resource name. */
  public String name() {
    return name;
  }

  /** Whether the engine keeps statistics and applies rules for this resource. */
  public boolean tracked() {
    return cluster != null;
  }

  /** The resource-wide node; null for an untracked resource. */
  public @Nullable ClusterNode cluster() {
    return cluster;
  }

  /**
   * The current compiled chain. While a rule set is being applied, the resource's new chain is
   * staged first and only becomes current when the whole set is published (one volatile write for
   * every resource), so a call that saw any resource's new chain never sees another's old one.
   */
  public Chain chain() {
    Staged next = staged; // read before chain: see RuleBook for why this order is safe
    if (next != null && next.publication.published) {
      return next.chain;
    }
    return chain;
  }

  void swapChain(Chain next) {
    chain = next;
  }

  /** Stages the chain of a rule set not yet published. */
  void stage(Chain next, Publication publication) {
    staged = new Staged(next, publication);
  }

  /** Makes a published staged chain the plain current one. */
  void commitStaged() {
    Staged next = staged;
    if (next != null) {
      chain = next.chain;
      staged = null;
    }
  }

  /** The moment a rule set takes effect on every resource at once. */
  static final class Publication {
    volatile boolean published;
  }

  private record Staged(Chain chain, Publication publication) {}

  /**
   * The node of this resource under a context, created (and attached under {@code parent}) on
   * first use.
   */
  DefaultNode nodeFor(Entrance entrance, @Nullable DefaultNode parent) {
    ContextNode last = lastUsed;
    if (last != null && last.entrance() == entrance) {
      return last.node();
    }
    DefaultNode node = contextNodes.get(entrance.name());
    if (node == null) {
      node = createNode(entrance, parent);
    }
    lastUsed = new ContextNode(entrance, node);
    return node;
  }

  private DefaultNode createNode(Entrance entrance, @Nullable DefaultNode parent) {
    ClusterNode clusterNode = Objects.requireNonNull(cluster, "untracked resource");
    WindowGeometry windows = Objects.requireNonNull(geometry, "untracked resource");
    DefaultNode created = new DefaultNode(name, windows, clusterNode);
    DefaultNode raced = contextNodes.putIfAbsent(entrance.name(), created);
    if (raced != null) {
      return raced;
    }
    if (parent != null) {
      parent.adopt(created);
    } else {
      entrance.node().adopt(created);
    }
    return created;
  }

  @Nullable DefaultNode existingNodeFor(String contextName) {
    return contextNodes.get(contextName);
  }
}
