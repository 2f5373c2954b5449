package dev.guard.engine.internal;

import org.jspecify.annotations.Nullable;

/** What one engine knows about one thread: its current context, if any. */
final class ThreadState {
  @Nullable Context context;
}
