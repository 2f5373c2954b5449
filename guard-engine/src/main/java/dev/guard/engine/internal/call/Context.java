package dev.guard.engine.internal.call;

import dev.guard.engine.internal.registry.Entrance;
import org.jspecify.annotations.Nullable;

/**
 * A thread's invocation scope: its entrance (context name), the caller's origin and the stack of
 * open entries ({@link #current} and its parents). An implicit context is opened by the first
 * entry of a thread that has none and is discarded when that entry exits.
 */
final class Context {

  final ThreadState owner;
  final boolean implicit;
  Entrance entrance;
  String origin;
  @Nullable CallEntry current;

  Context(ThreadState owner, Entrance entrance, String origin, boolean implicit) {
    this.owner = owner;
    this.entrance = entrance;
    this.origin = origin;
    this.implicit = implicit;
  }

  String name() {
    return entrance.name();
  }
}
