package dev.guard.engine.internal.call;

import dev.guard.engine.internal.registry.Entrance;
import dev.guard.engine.internal.registry.Overflows;
import dev.guard.api.internal.Checks;
import dev.guard.spi.Cap;
import dev.guard.engine.internal.node.EntranceNode;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The context names of one engine (bounded by {@link Cap#CONTEXTS}) and each thread's current
 * context. A thread with no context gets an implicit one at its first entry; it is discarded when
 * that entry exits. When the name cap is reached, new names fall back to the default context, so
 * rules keep applying (reported, never silent).
 */
final class ContextRegistry {

  /** The name of the implicit context of entries made outside any named context. */
  static final String DEFAULT_NAME = "guard_default_context";

  private final ConcurrentHashMap<String, Entrance> entrances = new ConcurrentHashMap<>();
  private final AtomicInteger named = new AtomicInteger();
  private final int maxContexts;
  private final Overflows overflows;
  private final Entrance defaultEntrance = new Entrance(DEFAULT_NAME, new EntranceNode(DEFAULT_NAME));
  private final ThreadLocal<ThreadState> threads = ThreadLocal.withInitial(ThreadState::new);

  ContextRegistry(int maxContexts, Overflows overflows) {
    this.maxContexts = maxContexts;
    this.overflows = overflows;
    entrances.put(DEFAULT_NAME, defaultEntrance);
  }

  ThreadState thread() {
    return threads.get();
  }

  /** The thread's context, opening an implicit one (named, or the default) if it has none. */
  Context currentOrImplicit(ThreadState thread, @Nullable String name, String origin) {
    Context context = thread.context;
    if (context == null) {
      context = thread.openImplicit(name == null ? defaultEntrance : entrance(name), origin);
    }
    return context;
  }

  /**
   * Opens an explicit context on the calling thread; returns null if the thread already has one
   * (which then stays in force, name and origin included).
   */
  @Nullable Context open(String name, String origin) {
    Checks.notBlank("context name", name);
    Objects.requireNonNull(origin, "origin");
    if (name.equals(DEFAULT_NAME)) {
      throw new IllegalArgumentException("context name must not be the reserved '" + name + "'");
    }
    ThreadState thread = threads.get();
    if (thread.context != null) {
      return null;
    }
    Context context = new Context(thread, entrance(name), origin, false);
    thread.context = context;
    return context;
  }

  /** Closes an explicit context if it is still the thread's and has no open entry. */
  static void close(Context context) {
    if (context.current == null) {
      context.owner.discard(context);
    }
  }

  @Nullable Entrance existing(String name) {
    return entrances.get(name);
  }

  private Entrance entrance(String name) {
    Entrance entrance = entrances.get(name);
    if (entrance != null) {
      return entrance;
    }
    if (named.incrementAndGet() > maxContexts) {
      named.decrementAndGet();
      Entrance raced = entrances.get(name);
      if (raced != null) {
        return raced;
      }
      overflows.report(Cap.CONTEXTS, name);
      return defaultEntrance;
    }
    Entrance fresh = new Entrance(name, new EntranceNode(name));
    Entrance raced = entrances.putIfAbsent(name, fresh);
    if (raced != null) {
      named.decrementAndGet();
      return raced;
    }
    return fresh;
  }
}
