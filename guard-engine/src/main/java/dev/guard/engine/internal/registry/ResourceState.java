package dev.guard.engine.internal.registry;

import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Everything an engine holds for one resource: its cluster node, its per-context nodes and its
 * compiled chain. The chain is replaced atomically when the resource's rules change; statistics
 * are never replaced.
 *
 * <p>A name entered once the resource cap is full gets a state that shares everything with the
 * engine's overflow resource (its chain, nodes and statistics) but keeps the name it was entered
 * by, so a handle on it still names, and declares rules for, the resource it was asked for.
 */
public final class ResourceState {

  private final String name;
  private final ClusterNode cluster;
  private final ConcurrentHashMap<String, DefaultNode> contextNodes = new ConcurrentHashMap<>();
  private final WindowGeometry geometry;
  private volatile Chain chain = Chain.EMPTY;
  /** A chain waiting for its rule set's publication; null outside the rule book's apply. */
  private volatile @Nullable Staged staged;
  private volatile @Nullable ContextNode lastUsed;
  /** The overflow resource whose chain and nodes this name uses; null for a resource of its own. */
  private final @Nullable ResourceState shared;

  /** The per-context node used last, with its entrance: most resources see one context. */
  private record ContextNode(Entrance entrance, DefaultNode node) {}

  private ResourceState(String name, WindowGeometry geometry, int maxOrigins) {
    this.name = name;
    this.geometry = geometry;
    this.cluster = new ClusterNode(geometry, maxOrigins);
    this.shared = null;
  }

  private ResourceState(String name, ResourceState overflow) {
    this.name = name;
    this.geometry = overflow.geometry;
    this.cluster = overflow.cluster;
    this.shared = overflow;
  }

  static ResourceState tracked(String name, WindowGeometry geometry, int maxOrigins) {
    return new ResourceState(name, geometry, maxOrigins);
  }

  /** A name past the resource cap: its calls run on the overflow resource's chain and nodes. */
  static ResourceState sharing(String name, ResourceState overflow) {
    return new ResourceState(name, overflow);
  }

  /** The resource name. */
  public String name() {
    return name;
  }

  /** Whether this is a name past the cap, running on the overflow resource. */
  public boolean sharesOverflow() {
    return shared != null;
  }

  /** The resource-wide node (the overflow resource's, for a name past the cap). */
  public ClusterNode cluster() {
    return cluster;
  }

  /**
   * The current compiled chain. While a rule set is being applied, the resource's new chain is
   * staged first and only becomes current when the whole set is published (one volatile write for
   * every resource), so a call that saw any resource's new chain never sees another's old one.
   */
  public Chain chain() {
    if (shared != null) {
      return shared.chain();
    }
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
  public DefaultNode nodeFor(Entrance entrance, @Nullable DefaultNode parent) {
    if (shared != null) {
      return shared.nodeFor(entrance, parent);
    }
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
    DefaultNode created = new DefaultNode(name, geometry, cluster);
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

  public @Nullable DefaultNode existingNodeFor(String entrance) {
    if (shared != null) {
      return shared.existingNodeFor(entrance);
    }
    return contextNodes.get(entrance);
  }
}
