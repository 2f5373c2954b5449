package dev.guard.engine.internal.registry;

import dev.guard.engine.internal.node.EntranceNode;

/**
 * One context name of an engine and its entrance node; shared by every thread that enters a
 * context of that name.
 *
 * @param name the context name
 * @param node the entrance node
 */
public record Entrance(String name, EntranceNode node) {}
