package dev.guard.engine.internal;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.PeriodStats;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleState;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.internal.adaptive.AdaptiveSlotKind;
import dev.guard.engine.internal.breaker.BreakerSlotKind;
import dev.guard.engine.internal.call.CallEntry;
import dev.guard.engine.internal.call.CallPath;
import dev.guard.engine.internal.call.CallSite;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.SlotKind;
import dev.guard.engine.internal.flow.FlowSlotKind;
import dev.guard.engine.internal.node.EntranceNode;
import dev.guard.engine.internal.pervalue.PerValueSlotKind;
import dev.guard.engine.internal.quota.LimitBudget;
import dev.guard.engine.internal.registry.ChainCompiler;
import dev.guard.engine.internal.registry.EngineConfig;
import dev.guard.engine.internal.registry.EngineParts;
import dev.guard.engine.internal.registry.ResourceRegistry;
import dev.guard.engine.internal.registry.ResourceState;
import dev.guard.engine.internal.rules.RuleBook;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.telemetry.MetricsHistory;
import dev.guard.engine.internal.telemetry.Telemetry;
import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.spi.SystemStatus;
import dev.guard.spi.TimeSource;
import dev.guard.spi.TokenService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One engine's parts, wired together: the resources and their chains ({@link ResourceRegistry}),
 * the path of a call ({@link CallPath}), the rules ({@link RuleBook}) and what the engine remembers
 * of its traffic ({@link Telemetry}), over the parts they share ({@link EngineParts}). It decides
 * nothing itself: {@code GuardEngine} and {@code GuardedResource} reach the parts through it.
 */
public final class EngineCore {

  private final EngineParts parts;
  private final ResourceRegistry resources;
  private final CallPath calls;
  private final RuleBook ruleBook;
  private final Telemetry telemetry;
  private final TokenService.@Nullable AvailabilityListener availability;
  private volatile boolean closed;

  /**
   * Builds an engine's parts.
   *
   * @param clock the time source
   * @param config the configuration
   * @param listeners the listeners
   * @param systemStatus where system protection reads CPU usage and load
   */
  public EngineCore(TimeSource clock, EngineConfig config, List<EngineListener> listeners,
      SystemStatus systemStatus) {
    this(clock, config, listeners, systemStatus, null);
  }

  /**
   * Builds an engine's parts.
   *
   * @param clock the time source
   * @param config the configuration
   * @param listeners the listeners
   * @param systemStatus where system protection reads CPU usage and load
   * @param tokenService the cluster token service, or null
   */
  public EngineCore(TimeSource clock, EngineConfig config, List<EngineListener> listeners,
      SystemStatus systemStatus, @Nullable TokenService tokenService) {
    this(EngineParts.of(clock, config, listeners, systemStatus, tokenService),
        parts -> ChainCompiler.kinds(parts.system()));
  }

  /** Builds an engine's parts with the given slot kinds (tests give kinds that fail). */
  EngineCore(EngineParts parts, Function<EngineParts, List<SlotKind<?>>> kinds) {
    this.parts = parts;
    this.resources = new ResourceRegistry(parts, kinds.apply(parts));
    this.calls = new CallPath(parts);
    this.ruleBook = new RuleBook(parts, resources);
    this.telemetry = new Telemetry(parts, resources);
    TokenService service = parts.tokenService();
    if (service != null && !parts.listeners().none()) {
      TokenService.AvailabilityListener forward = available -> parts.listeners()
          .tell(EngineListener::onTokenServiceAvailability, available, service);
      service.addAvailabilityListener(forward);
      this.availability = forward;
    } else {
      this.availability = null;
    }
  }

  /** Stops the engine's background work; later calls go through unchecked. */
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    calls.close();
    MetricsRecorder.unwatch(this);
    TokenService service = parts.tokenService();
    TokenService.AvailabilityListener forward = availability;
    if (service != null && forward != null) {
      service.removeAvailabilityListener(forward);
    }
  }

  /** Whether {@link #close()} ran. */
  public boolean closed() {
    return closed;
  }

  // the call path

  /**
   * Enters a call and decides it; see {@link CallPath#enter}.
   *
   * @param site the call site
   * @param pooled whether to reuse this thread's entry object
   * @param args the call's arguments (null: none)
   * @return the entry, exited already if it was refused
   */
  public CallEntry enter(CallSite site, boolean pooled, @Nullable Object @Nullable [] args) {
    return calls.enter(site, pooled, args);
  }

  /**
   * Enters a call with one argument on a pooled entry; see {@link CallPath#enterWithArgument}.
   *
   * @param site the call site
   * @param argument the argument
   * @return the entry
   */
  public CallEntry enterWithArgument(CallSite site, @Nullable Object argument) {
    return calls.enterWithArgument(site, argument);
  }

  /**
   * Enters a call with two arguments on a pooled entry; see {@link CallPath#enterWithArguments}.
   *
   * @param site the call site
   * @param first the first argument
   * @param second the second argument
   * @return the entry
   */
  public CallEntry enterWithArguments(
      CallSite site, @Nullable Object first, @Nullable Object second) {
    return calls.enterWithArguments(site, first, second);
  }

  /**
   * Detaches an admitted entry from the thread; see {@link CallPath#detach}.
   *
   * @param entry the entry
   */
  public static void detach(CallEntry entry) {
    CallPath.detach(entry);
  }

  /**
   * Opens an explicit context; null if the thread already has one.
   *
   * @param name the context name
   * @param origin the caller's origin
   * @return a handle to close, or null
   */
  public @Nullable Object openContext(String name, String origin) {
    return calls.openContext(name, origin);
  }

  /**
   * Closes a context opened by {@link #openContext}.
   *
   * @param handle the handle
   */
  public static void closeContext(Object handle) {
    CallPath.closeContext(handle);
  }

  // resources

  /**
   * The state of a resource for entering it.
   *
   * @param name the resource
   * @return its state
   */
  public ResourceState resolve(String name) {
    return resources.resolve(name);
  }

  /**
   * The state of a resource if it exists.
   *
   * @param name the resource
   * @return its state, or null
   */
  public @Nullable ResourceState existing(String name) {
    return resources.existing(name);
  }

  /** The names of every resource. */
  public Set<String> resourceNames() {
    return resources.names();
  }

  /**
   * The entrance node of a named context.
   *
   * @param name the context name
   * @return its node, or null if it was never entered
   */
  public @Nullable EntranceNode entrance(String name) {
    return calls.entrance(name);
  }

  /** The node of every inbound call. */
  public StatisticNode inbound() {
    return parts.inbound();
  }

  /**
   * How often a cap overflowed.
   *
   * @param cap the cap
   * @return the count
   */
  public long overflows(Cap cap) {
    return parts.overflows().count(cap);
  }

  // rules

  /** The engine's rules: every change enters here. */
  public RuleBook ruleBook() {
    return ruleBook;
  }

  /**
   * Declares rules on a resource; see {@link RuleBook#declare}.
   *
   * @param name the resource
   * @param rules the declared rules
   */
  public void declare(String name, List<? extends Rule> rules) {
    ruleBook.declare(name, rules);
  }

  /**
   * The rules in force on a resource.
   *
   * @param name the resource
   * @return its rules; empty if it does not exist
   */
  public List<Rule> rules(String name) {
    ResourceState state = resources.existing(name);
    return state == null ? List.of() : state.chain().rules();
  }

  /**
   * The live circuit breakers of a resource.
   *
   * @param name the resource
   * @return its breakers; empty if it does not exist
   */
  public List<CircuitBreaker> breakers(String name) {
    ResourceState state = resources.existing(name);
    return state == null ? List.of() : BreakerSlotKind.breakers(state.chain());
  }

  /**
   * The budgets of the QPS rules, per-value rules and their quotas that limit a call site's calls
   * with these arguments now (docs/BEHAVIOUR.md, "Budget"), read off the call path.
   *
   * @param site the call site: its resource, entrance and origin
   * @param args the calls' arguments, for per-value rules; null for none
   * @return the budgets: flow rules first, then per-value rules, each in the rules' order; empty
   *     when no rule has one
   */
  public List<LimitBudget> budget(CallSite site, @Nullable Object @Nullable [] args) {
    ResourceState state = site.resource();
    String context = site.entrance();
    List<LimitBudget> budgets = new ArrayList<>(4);
    FlowSlotKind.budget(state.chain(), state.cluster(), state.existingNodeFor(context),
        site.origin(), context, budgets);
    if (args != null) {
      PerValueSlotKind.budget(state.chain(), args, parts.clock().preciseNowNanos(), budgets);
    }
    return budgets;
  }

  /**
   * The run-time state of a resource's warm-up and per-value rules.
   *
   * @param name the resource
   * @return the states; empty if it does not exist
   */
  public List<RuleState> ruleStates(String name) {
    ResourceState state = resources.existing(name);
    if (state == null) {
      return List.of();
    }
    Chain chain = state.chain();
    List<RuleState> states = new ArrayList<>(FlowSlotKind.warmUpStates(chain));
    states.addAll(PerValueSlotKind.hotValueStates(chain, parts.clock().preciseNowNanos()));
    states.addAll(AdaptiveSlotKind.states(chain));
    return List.copyOf(states);
  }

  // time and services

  /** The engine's time source. */
  public TimeSource clock() {
    return parts.clock().source();
  }

  /** Engine time in milliseconds, read precisely: readers off the call path ask for it. */
  public long nowMs() {
    return parts.clock().preciseNowMs();
  }

  /** Where system protection reads CPU usage and load. */
  public SystemStatus systemStatus() {
    return parts.system().status();
  }

  /** The cluster token service, or null. */
  public @Nullable TokenService tokenService() {
    return parts.tokenService();
  }

  // telemetry

  /** Records every second that closed and was not recorded yet. */
  public void collectHistory() {
    telemetry.collect();
  }

  /**
   * The recorded seconds of a resource in a time range.
   *
   * @param resource the resource
   * @param fromMs the range's start
   * @param toMs the range's end (exclusive)
   * @return the seconds
   */
  public List<PeriodStats> history(String resource, long fromMs, long toMs) {
    return telemetry.history(resource, fromMs, toMs);
  }

  /**
   * Every recorded second of a resource together.
   *
   * @param resource the resource
   * @return the totals, or null
   */
  public @Nullable PeriodStats totals(String resource) {
    return telemetry.totals(resource);
  }

  /** The metrics history (for tests). */
  MetricsHistory metricsHistory() {
    return telemetry.metricsHistory();
  }
}
