package dev.guard.engine.internal.call;

import dev.guard.api.RefusedException;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.node.EntranceNode;
import dev.guard.engine.internal.registry.EngineClock;
import dev.guard.engine.internal.registry.EngineParts;
import dev.guard.engine.internal.registry.Entrance;
import dev.guard.engine.internal.registry.InternalErrors;
import dev.guard.engine.internal.registry.Overflows;
import dev.guard.engine.internal.registry.ResourceState;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.spi.Cap;
import org.jspecify.annotations.Nullable;

/**
 * The path of a call through the engine: opening its entry in the thread's context, deciding it
 * with its resource's chain, recording the outcome, and exiting it exactly once. The pass path
 * allocates nothing (pooled entries, held arguments) and takes no lock.
 */
public final class CallPath {

  private final EngineClock clock;
  private final ContextRegistry contexts;
  private final CallStatistics statistics;
  private final Overflows overflows;
  private final InternalErrors internalErrors;
  private final boolean contextStatistics;
  private volatile boolean closed;

  /**
   * Creates the call path of an engine.
   *
   * @param parts the engine's shared parts
   */
  public CallPath(EngineParts parts) {
    this.clock = parts.clock();
    this.overflows = parts.overflows();
    this.internalErrors = parts.internalErrors();
    this.contexts = new ContextRegistry(parts.config().maxContexts(), overflows);
    this.statistics = new CallStatistics(parts.inbound());
    this.contextStatistics = parts.config().contextStatistics();
  }

  /** Lets later calls through unchecked: the engine is closed. */
  public void close() {
    closed = true;
  }

  /**
   * The entrance node of a named context, if one was ever entered.
   *
   * @param name the context name
   * @return its node, or null
   */
  public @Nullable EntranceNode entrance(String name) {
    Entrance entrance = contexts.existing(name);
    return entrance == null ? null : entrance.node();
  }

  /**
   * Opens an explicit context; null if the thread already has one.
   *
   * @param name the context name
   * @param origin the caller's origin ("" when unknown)
   * @return a handle to close, or null when nothing was opened
   */
  public @Nullable Object openContext(String name, String origin) {
    return contexts.open(name, origin);
  }

  /**
   * Closes a context opened by {@link #openContext}; ignored while it has open entries.
   *
   * @param handle the handle
   */
  public static void closeContext(Object handle) {
    ContextRegistry.close((Context) handle);
  }

  /**
   * Enters a call and decides it. A refusal is not thrown: the returned entry is then already
   * exited and {@link CallEntry#refusal()} says why.
   *
   * <p>A pooled entry is reused by later calls of this thread at the same nesting depth once it
   * has exited: for callers that exit it themselves, on this thread, and never let it escape. They
   * close it with {@link CallEntry#close(long)} and the generation read right after entering, so a
   * reused entry is never closed by a stale holder. Other entries are new objects the caller may
   * keep.
   *
   * @param site the call site
   * @param pooled whether to reuse this thread's entry object
   * @param args the call's arguments, for per-value rules (null: none)
   * @return the entry, admitted unless {@link CallEntry#refusal()} is non-null
   */
  public CallEntry enter(CallSite site, boolean pooled, @Nullable Object @Nullable [] args) {
    return enter(site, pooled, args, 0, null, null);
  }

  /**
   * Like {@link #enter} on a pooled entry, with one argument held in the entry's own one-element
   * array, so passing it allocates nothing.
   */
  public CallEntry enterWithArgument(CallSite site, @Nullable Object argument) {
    return enter(site, true, null, 1, argument, null);
  }

  /**
   * Like {@link #enter} on a pooled entry, with two arguments held in the entry's own two-element
   * array, so passing them allocates nothing.
   */
  public CallEntry enterWithArguments(
      CallSite site, @Nullable Object first, @Nullable Object second) {
    return enter(site, true, null, 2, first, second);
  }

  /**
   * Detaches an admitted entry from the thread (the thread's context no longer sees it, and the
   * thread may go on entering and exiting other resources), so it may be exited later on any
   * thread.
   *
   * @param entry an admitted entry from {@link #enter} that is not pooled
   */
  public static void detach(CallEntry entry) {
    Context owner = entry.context;
    pop(entry);
    Context detached = new Context(new ThreadState(), owner.entrance, owner.origin, false);
    detached.current = entry;
    entry.context = detached;
    entry.parent = null;
  }

  /**
   * The whole entry of a call, in order: open its entry in the thread's context, place it on its
   * nodes, let its resource's chain decide, record the outcome.
   *
   * <p>It is one method on purpose, and must stay longer than 325 bytes of bytecode (HotSpot's
   * {@code FreqInlineSize}), which {@code CallPathShapeTest} checks: the JIT then never inlines it
   * into the small methods that call it (the resource handle, the DSL's decorators), so those stay
   * small enough to be inlined into the application's own method, and a refusal they throw is
   * compiled there as a jump to the application's {@code catch} instead of unwinding a frame
   * (docs/PERFORMANCE.md, "Why a refusal is cheap").
   *
   * @param held how many of {@code first} and {@code second} a pooled entry holds as its
   *     arguments (0, 1 or 2)
   */
  private CallEntry enter(CallSite site, boolean pooled, @Nullable Object @Nullable [] args,
      int held, @Nullable Object first, @Nullable Object second) {
    long now = clock.nowNanos();
    ThreadState thread = contexts.thread();
    Context context = contexts.currentOrImplicit(thread, site.entrance(), site.origin());
    CallEntry entry;
    if (pooled) {
      CallEntry top = context.current;
      int depth = top == null ? 0 : top.depth + 1;
      CallEntry reused = thread.pooled(depth);
      if (reused != null) {
        reused.reuse(site, context, args, now);
        entry = reused;
      } else {
        entry = new CallEntry(this, true, site, context, args, now);
        thread.pool(depth, entry);
      }
      if (held == 1) {
        entry.holdArgument(first);
      } else if (held == 2) {
        entry.holdArguments(first, second);
      }
    } else {
      entry = new CallEntry(this, false, site, context, args, now);
    }
    if (closed) {
      entry.unchecked = true;
      context.current = entry;
      return entry;
    }

    ResourceState resource = entry.resource;
    StatisticNode origins = null;
    if (!context.origin.isEmpty()) {
      origins = resource.cluster().originNode(context.origin);
      if (origins == null) {
        overflows.report(Cap.ORIGINS, context.origin);
      }
    }
    CallEntry parent = entry.parent;
    entry.place(resource.nodeFor(context.entrance, parent == null ? null : parent.node()),
        contextStatistics || entry.chain.measuresContexts(), origins);

    try {
      RefusedException refused = entry.chain.enter(entry);
      if (refused != null) {
        entry.refusal = refused;
        statistics.refused(entry, refused);
        entry.markExitedUnseen();
        entry.dropArgument();
        discardIfIdle(context);
        return entry;
      }
    } catch (RuntimeException unexpected) {
      entry.chain = Chain.EMPTY; // fail open: the call goes ahead unguarded, no slot sees its exit
      internalErrors.report(resource.name(), unexpected);
    } catch (Error fatal) {
      entry.markExitedUnseen();
      discardIfIdle(context);
      throw fatal;
    }
    statistics.pass(entry);
    context.current = entry; // pushed only once admitted: a refused entry is never seen by others
    return entry;
  }

  private static void discardIfIdle(Context context) {
    if (context.current == null && context.implicit) {
      context.owner.discard(context);
    }
  }

  /**
   * Exits an entry exactly once; see {@link dev.guard.api.Entry#close()}.
   *
   * @param entry the entry
   */
  public void exit(CallEntry entry) {
    Context context = entry.context;
    CallEntry current = context.current;
    if (current == entry || current == null) {
      if (entry.tryMarkExited()) {
        complete(entry);
        pop(entry);
      }
      return;
    }
    if (entry.isExited()) {
      return;
    }
    // Another thread leaves the owner's pooled (decorator) entries to the owner, which exits
    // them when its calls return: only the owner thread ever exits a pooled entry.
    boolean byOwner = context.owner.thread == Thread.currentThread();
    for (CallEntry open = current; open != null; open = open.parent) {
      if ((byOwner || !open.pooled) && open.tryMarkExited()) {
        complete(open);
      }
    }
    context.current = null;
    if (context.implicit) {
      context.owner.discard(context);
    }
    throw new IllegalStateException(
        "entries must be closed in reverse order: closed " + entry + " while " + current
            + " was open; every entry of the context has been exited");
  }

  /** Records an exit; the entry lets go of a held argument however it exited. */
  private void complete(CallEntry entry) {
    if (!entry.unchecked) {
      entry.completedAt(clock.nowMs());
      statistics.complete(entry);
      try {
        entry.chain.exit(entry); // slots read the arguments at exit, so drop them afterwards
      } catch (RuntimeException unexpected) {
        internalErrors.report(entry.resource(), unexpected); // the caller never sees it
      }
    }
    entry.dropArgument();
  }

  private static void pop(CallEntry entry) {
    Context context = entry.context;
    if (context.current == entry) {
      context.current = entry.parent;
    }
    discardIfIdle(context);
  }}
