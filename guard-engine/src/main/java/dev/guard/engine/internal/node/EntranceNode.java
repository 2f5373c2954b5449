package dev.guard.engine.internal.node;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The root of one context name's subtree. It keeps no statistics of its own: its reads are the
 * sums over its children (see {@code SummedStats}).
 */
public final class EntranceNode {

  private final String name;
  private final List<DefaultNode> children = new CopyOnWriteArrayList<>();

  /**
   * Creates the node.
   *
   * @param name the context name
   */
  public EntranceNode(String name) {
    this.name = name;
  }

  /** The context name. */
  public String name() {
    return name;
  }

  /** The per-resource nodes first entered directly under this entrance. */
  public List<DefaultNode> children() {
    return children;
  }

  /**
   * Attaches a node under this entrance.
   *
   * @param child the child
   */
  public void adopt(DefaultNode child) {
    if (!children.contains(child)) {
      children.add(child);
    }
  }
}
