package dev.guard.engine.internal.call;

import dev.guard.engine.internal.registry.Entrance;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * What one engine knows about one thread: its current context, a spare implicit context, and the
 * entries the decorator path reuses, one per nesting depth. Only the owning thread touches the
 * spare and the pool, so they need no synchronisation.
 */
final class ThreadState {

  /** The thread this state belongs to (the one that created it). */
  final Thread thread = Thread.currentThread();

  @Nullable Context context;
  private @Nullable Context spare;
  private CallEntry[] pool = new CallEntry[0];

  /** Opens an implicit context, reusing the one the thread discarded last. */
  Context openImplicit(Entrance entrance, String origin) {
    Context reused = spare;
    Context opened;
    if (reused != null) {
      spare = null;
      reused.entrance = entrance;
      reused.origin = origin;
      reused.current = null;
      opened = reused;
    } else {
      opened = new Context(this, entrance, origin, true);
    }
    context = opened;
    return opened;
  }

  /** Ends the thread's context; an implicit one is kept for reuse. */
  void discard(Context ended) {
    if (context == ended) {
      context = null;
      if (ended.implicit) {
        spare = ended;
      }
    }
  }

  /** The pooled entry for a nesting depth, if it is free. */
  @Nullable CallEntry pooled(int depth) {
    if (depth < pool.length) {
      CallEntry entry = pool[depth];
      return entry != null && entry.reusable() ? entry : null;
    }
    return null;
  }

  void pool(int depth, CallEntry entry) {
    if (depth >= pool.length) {
      if (depth >= 64) {
        return;
      }
      pool = Arrays.copyOf(pool, depth + 1);
    }
    pool[depth] = entry;
  }
}
