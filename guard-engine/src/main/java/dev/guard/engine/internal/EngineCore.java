package dev.guard.engine.internal;

import dev.guard.api.RefusedException;
import dev.guard.api.CircuitBreaker;
import dev.guard.spi.TimeSource;
import dev.guard.api.event.BreakerTransition;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.engine.PeriodStats;
import dev.guard.engine.RuleState;
import dev.guard.spi.SystemStatus;
import dev.guard.spi.TokenService;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import dev.guard.engine.internal.breaker.BreakerSlotKind;
import dev.guard.engine.internal.flow.FlowSlotKind;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.node.EntranceNode;
import dev.guard.engine.internal.pervalue.PerValueSlotKind;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import dev.guard.engine.internal.system.SystemProtection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The call path of one engine. {@link #enter} resolves the thread's context and the resource's
 * nodes, runs the resource's chain, and records the outcome: on pass, thread +1 and pass +count
 * on the context node (and so the cluster node), the origin node and, for inbound calls, the
 * global inbound node; on refusal, refused +count on the same nodes. {@link #exit} records response
 * time, completion, error and thread −1 on the same nodes, exactly once per entry.
 *
 * <p>This is the only class that reads the engine's time source; engine time is measured from
 * the engine's creation, so it is non-negative whatever the clock's origin.
 */
public final class EngineCore implements SlotContext {

  private final TimeSource clock;
  private final long originNanos;
  private final EngineConfig config;
  private final List<EngineListener> listeners;
  private final Overflows overflows;
  private final ContextRegistry contexts;
  private final ResourceRegistry resources;
  private final StatisticNode inbound;
  private final CallStatistics statistics;
  private final SystemProtection system;
  private final MetricsHistory history;
  private final RefusalLog refusalLog;
  private final @Nullable TokenService tokenService;
  private final RuleBook ruleBook;
  private final InternalErrors internalErrors;
  private final TokenService.@Nullable AvailabilityListener availabilityForwarder;
  private volatile boolean closed;

  /**
   * Creates the core.
   *
   * @param clock the time source
   * @param config validated settings
   * @param listeners event listeners
   * @param systemStatus where system protection reads CPU usage and load
   */
  public EngineCore(TimeSource clock, EngineConfig config, List<EngineListener> listeners,
      SystemStatus systemStatus) {
    this(clock, config, listeners, systemStatus, null);
  }

  /**
   * Creates the core with a token service for cluster-mode flow rules.
   *
   * @param clock the time source
   * @param config validated settings
   * @param listeners event listeners
   * @param systemStatus where system protection reads CPU usage and load
   * @param tokenService decides cluster-mode flow rules; null for none
   */
  public EngineCore(TimeSource clock, EngineConfig config, List<EngineListener> listeners,
      SystemStatus systemStatus, @Nullable TokenService tokenService) {
    this(clock, config, listeners, systemStatus, tokenService, ChainCompiler.KINDS);
  }

  /**
   * Creates the core with the slot kinds its chains are compiled from (tests replace one with a
   * kind that fails on purpose).
   */
  EngineCore(TimeSource clock, EngineConfig config, List<EngineListener> listeners,
      SystemStatus systemStatus, @Nullable TokenService tokenService, List<SlotKind<?>> kinds) {
    this.tokenService = tokenService;
    this.clock = clock;
    this.originNanos = clock.coarseNanoTime();
    this.config = config;
    this.listeners = List.copyOf(listeners);
    this.overflows = new Overflows(this.listeners);
    this.internalErrors = new InternalErrors(this.listeners);
    this.contexts = new ContextRegistry(config.maxContexts(), overflows);
    this.resources =
        new ResourceRegistry(config, overflows, this.listeners, internalErrors, this, kinds);
    this.inbound = new StatisticNode(config.secondWindow());
    this.statistics = new CallStatistics(inbound);
    this.system = new SystemProtection(systemStatus);
    this.history = new MetricsHistory(config.historySeconds(), config.historyBudget(), overflows);
    this.refusalLog = new RefusalLog(this.listeners, config.refusalLogger(), config.refusalLogLines());
    this.ruleBook = new RuleBook(resources, system, clock, this.listeners, config.ruleHistory());
    if (tokenService != null && !this.listeners.isEmpty()) {
      this.availabilityForwarder = new AvailabilityForwarder(this.listeners, tokenService);
      tokenService.addAvailabilityListener(availabilityForwarder);
    } else {
      this.availabilityForwarder = null;
    }
  }

  /**
   * Closes the engine once: its availability listener leaves the token service, the background
   * recorder forgets it, and later calls pass unchecked (docs/BEHAVIOUR.md, "Closing an engine").
   * Idempotent and thread-safe.
   */
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    MetricsRecorder.unwatch(this);
    TokenService service = tokenService;
    TokenService.AvailabilityListener forwarder = availabilityForwarder;
    if (service != null && forwarder != null) {
      service.removeAvailabilityListener(forwarder);
    }
  }

  /**
   * Whether {@link #close()} ran.
   *
   * @return true once closed
   */
  public boolean closed() {
    return closed;
  }

  /**
   * Forwards a token service's availability changes to the engine's listeners; compared by
   * identity, so that closing one engine removes only its own.
   */
  private static final class AvailabilityForwarder implements TokenService.AvailabilityListener {
    private final List<EngineListener> listeners;
    private final TokenService service;

    AvailabilityForwarder(List<EngineListener> listeners, TokenService service) {
      this.listeners = listeners;
      this.service = service;
    }

    @Override
    public void availabilityChanged(boolean available) {
      for (EngineListener listener : listeners) {
        try {
          listener.onTokenServiceAvailability(available, service);
        } catch (RuntimeException ignored) {
          // listeners must not break the call path
        }
      }
    }
  }

  /**
   * Records the seconds that closed since the last collection into the metrics history (at once
   * when that was done this second).
   */
  public void collectHistory() {
    history.collect(nowMs(), resources::forEachTracked, refusalLog.active() ? refusalLog : null);
  }

  /** The recorded seconds of a resource in {@code [fromMs, toMs)}, after collecting. */
  public List<PeriodStats> history(String resource, long fromMs, long toMs) {
    collectHistory();
    return history.history(resource, fromMs, toMs);
  }

  /** The totals of every recorded second of a resource, after collecting; null if none. */
  public @Nullable PeriodStats totals(String resource) {
    collectHistory();
    return history.totals(resource);
  }

  /** The metrics history (tests read its bookkeeping). */
  public MetricsHistory metricsHistory() {
    return history;
  }

  /** The engine's time source. */
  public TimeSource clock() {
    return clock;
  }

  /** Whole rule sets: applying them, their history. */
  public RuleBook ruleBook() {
    return ruleBook;
  }

  /** Where system protection reads CPU usage and load. */
  public SystemStatus systemStatus() {
    return system.status();
  }

  /** The system rules in force. */
  public List<SystemRule> systemRules() {
    return system.rules();
  }

  @Override
  public List<Rule> engineWideRules() {
    return system.chainRules();
  }

  @Override
  public SystemProtection systemProtection() {
    return system;
  }

  /**
   * Engine time in nanoseconds from the clock's coarse reading (millisecond precision): what
   * statistics and most decisions use. Non-negative, measured from the engine's creation.
   */
  public long nowNanos() {
    long now = clock.coarseNanoTime() - originNanos;
    return now < 0 ? 0 : now;
  }

  @Override
  public long nowMs() {
    return nowNanos() / 1_000_000L;
  }

  @Override
  public long preciseNowNanos() {
    long now = clock.nanoTime() - originNanos;
    return now < 0 ? 0 : now;
  }

  @Override
  public WindowGeometry secondWindow() {
    return config.secondWindow();
  }

  @Override
  public StatisticNode inbound() {
    return inbound;
  }

  /**
   * Resolves a resource for entering (untracked when the resource cap is full).
   *
   * @param name the resource name
   * @return its state
   */
  public ResourceState resolve(String name) {
    return resources.resolve(name);
  }

  /**
   * Declares rules on a resource: they replace its rules of the kinds they belong to and keep the
   * rest; rules in the part of an attached source are left out (the source owns them). A
   * declaration that changes nothing is a no-op.
   *
   * @param name the resource
   * @param rules the declared rules
   */
  public void declare(String name, List<? extends Rule> rules) {
    ruleBook.declare(name, rules);
  }

  /** The resource's current rules (empty if unknown). */
  public List<Rule> rules(String name) {
    ResourceState state = resources.existing(name);
    return state == null ? List.of() : state.chain().rules();
  }

  /** The circuit breakers of a resource, in rule order (empty if none). */
  public List<CircuitBreaker> breakers(String name) {
    ResourceState state = resources.existing(name);
    return state == null ? List.of() : BreakerSlotKind.breakers(state.chain());
  }

  /** The run-time state of a resource's warm-up and hot-parameter rules (read only). */
  public List<RuleState> ruleStates(String name) {
    ResourceState state = resources.existing(name);
    if (state == null) {
      return List.of();
    }
    Chain chain = state.chain();
    List<RuleState> states = new ArrayList<>(FlowSlotKind.warmUpStates(chain));
    states.addAll(PerValueSlotKind.hotValueStates(chain, preciseNowNanos()));
    return List.copyOf(states);
  }

  /** The known resources. */
  public Set<String> resourceNames() {
    return resources.names();
  }

  /** The state of a resource if it exists. */
  public @Nullable ResourceState existing(String name) {
    return resources.existing(name);
  }

  /** The entrance node of a context name, if known. */
  public @Nullable EntranceNode entrance(String name) {
    Entrance entrance = contexts.existing(name);
    return entrance == null ? null : entrance.node();
  }

  /** How often a cap overflowed. */
  public long overflows(Cap cap) {
    return overflows.count(cap);
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
   * @param args the call's arguments, for hot-parameter rules (null: none)
   * @return the entry, admitted unless {@link CallEntry#refusal()} is non-null
   */
  public CallEntry enter(CallSite site, boolean pooled, @Nullable Object @Nullable [] args) {
    return decide(open(site, pooled, args));
  }

  /**
   * Like {@link #enter} on a pooled entry, with one argument held in the entry's own one-element
   * array, so passing it allocates nothing.
   */
  public CallEntry enterWithArgument(CallSite site, @Nullable Object argument) {
    CallEntry entry = open(site, true, null);
    entry.holdArgument(argument);
    return decide(entry);
  }

  /**
   * Like {@link #enter} on a pooled entry, with two arguments held in the entry's own two-element
   * array, so passing them allocates nothing.
   */
  public CallEntry enterWithArguments(
      CallSite site, @Nullable Object first, @Nullable Object second) {
    CallEntry entry = open(site, true, null);
    entry.holdArguments(first, second);
    return decide(entry);
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

  /** Creates (or reuses) the entry of a call in the thread's context; nothing is decided yet. */
  private CallEntry open(CallSite site, boolean pooled, @Nullable Object @Nullable [] args) {
    long now = nowNanos();
    ThreadState thread = contexts.thread();
    Context context = contexts.currentOrImplicit(thread, site.entrance(), site.origin());
    if (!pooled) {
      return new CallEntry(this, false, site, context, args, now);
    }
    CallEntry top = context.current;
    int depth = top == null ? 0 : top.depth + 1;
    CallEntry reused = thread.pooled(depth);
    if (reused != null) {
      reused.reuse(site, context, args, now);
      return reused;
    }
    CallEntry fresh = new CallEntry(this, true, site, context, args, now);
    thread.pool(depth, fresh);
    return fresh;
  }

  /** Runs an opened entry through its resource's chain and records the outcome. */
  private CallEntry decide(CallEntry entry) {
    ResourceState resource = entry.resource;
    Context context = entry.context;
    if (closed) {
      entry.unchecked = true;
      context.current = entry;
      return entry;
    }
    CallEntry parent = entry.parent;
    entry.node = resource.nodeFor(context.entrance, parent == null ? null : parent.node);
    entry.onContextNode = config.contextStatistics() || entry.chain.measuresContexts();
    entry.originNode = originNode(resource, context.origin);
    try {
      RefusedException refused = entry.chain.enter(entry);
      if (refused != null) {
        recordRefused(entry, refused);
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

  private @Nullable StatisticNode originNode(ResourceState resource, String origin) {
    if (origin.isEmpty()) {
      return null;
    }
    StatisticNode node = resource.cluster().originNode(origin);
    if (node == null) {
      overflows.report(Cap.ORIGINS, origin);
    }
    return node;
  }

  private void recordRefused(CallEntry entry, RefusedException refused) {
    entry.blockError = refused;
    statistics.refused(entry, refused);
    entry.markExitedUnseen();
    entry.dropArgument();
    discardIfIdle(entry.context);
  }

  private static void discardIfIdle(Context context) {
    if (context.current == null && context.implicit) {
      context.owner.discard(context);
    }
  }

  /**
   * Exits an entry exactly once; see {@link dev.guard.engine.Entry#close()}.
   *
   * @param entry the entry
   */
  void exit(CallEntry entry) {
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
      entry.completedAt(nowMs());
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
  }

  @Override
  public void publish(BreakerTransition transition) {
    for (EngineListener listener : listeners) {
      try {
        listener.onBreakerStateChanged(transition);
      } catch (RuntimeException ignored) {
        // listeners must not break the call path
      }
    }
  }

  @Override
  public @Nullable TokenService tokenService() {
    return tokenService;
  }

  @Override
  public long occupyTimeoutMs() {
    return config.occupyTimeoutMs();
  }

  @Override
  public void sleep(long nanos) throws InterruptedException {
    clock.sleep(nanos);
  }

  @Override
  public void reportOverflow(Cap cap, String name, long times) {
    overflows.report(cap, name, times);
  }

  @Override
  public @Nullable ClusterNode clusterNodeOf(String resource) {
    ResourceState state = resources.resolve(resource);
    return state.sharesOverflow() ? null : state.cluster(); // never measure the overflow's calls
  }
}
