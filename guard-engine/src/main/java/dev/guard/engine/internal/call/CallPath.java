package dev.guard.engine.internal.call;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.node.EntranceNode;
import dev.guard.engine.internal.registry.EngineClock;
import dev.guard.engine.internal.registry.EngineParts;
import dev.guard.engine.internal.registry.Entrance;
import dev.guard.engine.internal.registry.InternalErrors;
import dev.guard.engine.internal.registry.Overflows;
import dev.guard.engine.internal.registry.ResourceState;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.spi.Cap;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The path of a call through the engine: opening its entry in the thread's context, deciding it
 * with its resource's chain, recording the outcome, and exiting it exactly once. The pass path
 * allocates nothing (pooled entries, held arguments) and takes no lock.
 *
 * <p>What a call records, on every node that measures it (docs/BEHAVIOUR.md, "Statistics"): the
 * resource-wide node; the per-context node when the call's entry counts on it; the origin node
 * when the caller has one; and the engine's inbound node for {@link EntryType#IN} calls.
 *
 * <ul>
 *   <li>pass: thread +1 and pass +count (a call admitted on a borrowed pass adds no pass: the
 *       borrowing already accounted it);
 *   <li>refusal: refused +count, and the refusal's kind on the resource-wide node;
 *   <li>completion: response time and success +count, exception +count when an error was
 *       recorded, thread −1.
 * </ul>
 *
 * <p>Per-context nodes cost a second write of every event, so they record only where they are
 * read: for resources whose rules measure a context (CHAIN flow rules), or everywhere when the
 * engine is built with {@code contextStatistics(true)}. Whether an entry counts on its per-context
 * node is fixed when it enters, so gauges stay balanced when rules change in between.
 */
public final class CallPath {

  private final EngineClock clock;
  private final ContextRegistry contexts;
  private static final int KINDS = RefusedException.Kind.values().length;

  private final StatisticNode inbound;
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
    this.inbound = parts.inbound();
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
        long nowMs = entry.nowMs();
        int count = entry.count();
        DefaultNode node = Objects.requireNonNull(entry.node());
        node.cluster().stats().addRefused(nowMs, count);
        node.cluster().refusalKinds(KINDS)
            .add(nowMs, RefusedException.Kind.of(refused).ordinal(), count);
        if (entry.onContextNode) {
          refused(node.stats(), nowMs, count);
        }
        refused(entry.originNode(), nowMs, count);
        if (entry.type() == EntryType.IN) {
          refused(inbound, nowMs, count);
        }
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
    long nowMs = entry.nowMs();
    int count = entry.count();
    boolean borrowed = entry.borrowed();
    DefaultNode node = Objects.requireNonNull(entry.node());
    pass(node.cluster().stats(), nowMs, count, borrowed);
    if (entry.onContextNode) {
      pass(node.stats(), nowMs, count, borrowed);
    }
    pass(entry.originNode(), nowMs, count, borrowed);
    if (entry.type() == EntryType.IN) {
      pass(inbound, nowMs, count, borrowed);
    }
    context.current = entry; // pushed only once admitted: a refused entry is never seen by others
    return entry;
  }

  /**
   * Exits an entry exactly once (see {@link dev.guard.api.Entry#close()}), with the failure its
   * body threw, if any: it counts as the call's error unless {@code errorFilter} says it does not.
   *
   * <p>Like {@link #enter(CallSite, boolean, Object[], int, Object, Object)}, this is one method on
   * purpose, longer than the JIT inlines, so that the methods around a call stay small.
   *
   * @param entry the entry
   * @param failure what the call's body threw, or null
   * @param errorFilter which failures count as errors; null: all of them
   */
  public void exit(CallEntry entry, @Nullable Throwable failure,
      @Nullable Predicate<? super Throwable> errorFilter) {
    if (failure != null) {
      boolean counts;
      try {
        counts = errorFilter == null || errorFilter.test(failure);
      } catch (RuntimeException broken) {
        counts = true; // a broken filter must not hide the failure
      }
      if (counts) {
        entry.recordError(failure);
      }
    }
    Context context = entry.context;
    CallEntry current = context.current;
    if (current != entry && current != null) {
      if (entry.isExited()) {
        return;
      }
      // Closed out of order: every open entry of the context exits, top first, then this throws.
      // Another thread leaves the owner's pooled (decorator) entries to the owner, which exits
      // them when its calls return: only the owner thread ever exits a pooled entry.
      boolean byOwner = context.owner.thread == Thread.currentThread();
      for (CallEntry open = current; open != null; ) {
        CallEntry below = open.parent;
        if (byOwner || !open.pooled) {
          context.current = open;
          exit(open, null, null);
        }
        open = below;
      }
      context.current = null;
      if (context.implicit) {
        context.owner.discard(context);
      }
      throw new IllegalStateException(
          "entries must be closed in reverse order: closed " + entry + " while " + current
              + " was open; every entry of the context has been exited");
    }
    if (!entry.tryMarkExited()) {
      return;
    }
    if (!entry.unchecked) {
      long nowMs = clock.nowMs();
      entry.completedAt(nowMs);
      long rt = entry.rtMs();
      int count = entry.count();
      boolean failed = entry.error() != null;
      DefaultNode node = Objects.requireNonNull(entry.node());
      complete(node.cluster().stats(), nowMs, rt, count, failed);
      if (entry.onContextNode) {
        complete(node.stats(), nowMs, rt, count, failed);
      }
      complete(entry.originNode(), nowMs, rt, count, failed);
      if (entry.type() == EntryType.IN) {
        complete(inbound, nowMs, rt, count, failed);
      }
      try {
        entry.chain.exit(entry); // slots read the arguments at exit, so drop them afterwards
      } catch (RuntimeException unexpected) {
        internalErrors.report(entry.resource(), unexpected); // the caller never sees it
      }
    }
    entry.dropArgument();
    if (context.current == entry) {
      context.current = entry.parent;
    }
    discardIfIdle(context);
  }

  private static void discardIfIdle(Context context) {
    if (context.current == null && context.implicit) {
      context.owner.discard(context);
    }
  }

  private static void pop(CallEntry entry) {
    Context context = entry.context;
    if (context.current == entry) {
      context.current = entry.parent;
    }
    discardIfIdle(context);
  }

  private static void pass(@Nullable StatisticNode node, long nowMs, int count, boolean borrowed) {
    if (node == null) {
      return;
    }
    node.increaseThreads();
    if (!borrowed) {
      node.addPass(nowMs, count);
    }
  }

  private static void refused(@Nullable StatisticNode node, long nowMs, int count) {
    if (node != null) {
      node.addRefused(nowMs, count);
    }
  }

  private static void complete(
      @Nullable StatisticNode node, long nowMs, long rtMs, int count, boolean failed) {
    if (node == null) {
      return;
    }
    node.addRtAndSuccess(nowMs, rtMs, count);
    if (failed) {
      node.addException(nowMs, count);
    }
    node.decreaseThreads();
  }
}
