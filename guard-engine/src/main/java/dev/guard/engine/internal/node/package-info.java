/**
 * The statistics node tree: per-context nodes of a resource, the resource-wide cluster node with
 * its origin nodes, and entrance nodes that sum their children.
 */
@NullMarked
package dev.guard.engine.internal.node;

import org.jspecify.annotations.NullMarked;
