package dev.guard.engine;

import dev.guard.api.internal.Threads;
import dev.guard.api.Entry;
import dev.guard.api.PeriodStats;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.RuleState;
import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.spi.RulePart;
import dev.guard.spi.RuleSource;
import dev.guard.spi.SystemStatus;
import dev.guard.spi.TokenService;
import dev.guard.api.internal.Checks;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.EntryType;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.engine.internal.call.CallSite;
import dev.guard.engine.internal.host.HostSystemStatus;
import dev.guard.engine.internal.host.SystemTimeSource;
import dev.guard.engine.internal.registry.EngineConfig;
import dev.guard.engine.internal.EngineCore;
import dev.guard.engine.internal.MetricsRecorder;
import dev.guard.engine.internal.stat.StatisticNode;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Decides, call by call, whether a protected resource may be entered, from live sliding-window
 * statistics and the rules loaded for that resource.
 *
 * <p>An engine owns everything: resources, rules, statistics, contexts, listeners and its {@link
 * TimeSource}. There is no other global state; tests build an isolated engine on a manual clock:
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();
 * GuardEngine engine = GuardEngine.builder().clock(clock).build();
 * engine.apply(RuleSet.of(FlowRule.qps("createOrder", 100)));
 * try (Entry entry = engine.resource("createOrder").enter()) {
 *   orders.create(request);
 * } catch (RefusedException refused) {
 *   // over the limit: the body did not run
 * }
 * }</pre>
 *
 * <p>Applications call through the {@code Guard} DSL; adapters and frameworks enter a resource
 * through its handle, {@link #resource(String)}. The engine itself has no call methods. Engines are
 * thread-safe; the call path takes no lock. An engine that is no longer needed is {@linkplain
 * #close() closed}.
 */
public final class GuardEngine implements AutoCloseable {

  /** The source name of the rule sets {@link #apply} applies, in the {@linkplain #ruleHistory() history}. */
  public static final String APPLIED = "apply";

  /**
   * The resource that calls on new names run on once the engine has {@link
   * Builder#maxResources} resources. Such a call keeps its name for its handle and for {@code
   * onCapExceeded}, but is decided by this resource's chain, so engine-wide rules (system
   * protection for {@link EntryType#IN} calls, default circuit breakers) and this resource's own
   * rules apply, and it is measured in this resource's statistics and the inbound statistics. It
   * is created on first use, never counts against the cap, and takes rules at any time:
   *
   * <pre>{@code
   * engine.apply(engine.ruleSet().withRulesOf(GuardEngine.OVERFLOW_RESOURCE,
   *     List.of(FlowRule.qps(GuardEngine.OVERFLOW_RESOURCE, 100))));
   * }</pre>
   */
  public static final String OVERFLOW_RESOURCE = "{resource overflow}";

  private final EngineCore core;
  private final boolean shared;
  private final ThreadFactory threads;

  GuardEngine(EngineCore core) {
    this(core, false, Threads.daemons());
  }

  private GuardEngine(EngineCore core, boolean shared, ThreadFactory threads) {
    this.core = core;
    this.shared = shared;
    this.threads = threads;
  }

  /**
   * Returns the process-wide engine on the system clock, used by guards that are never bound to an
   * engine. Created on first use. It is global state: every unbound guard of the JVM (of this
   * class loader) declares its rules on it and shares its statistics and rule set, so a test that
   * needs isolation builds its own engine (docs/BEHAVIOUR.md, "Process-wide state").
   *
   * @return the shared engine
   */
  public static GuardEngine shared() {
    return SharedEngine.INSTANCE;
  }

  /**
   * Returns the time source backed by the JVM's monotonic clock ({@code System.nanoTime()}) that
   * waits by parking the thread, the default {@linkplain Builder#clock(TimeSource) clock} of every
   * engine. Its {@link TimeSource#coarseNanoTime()} serves a value refreshed every millisecond by
   * one daemon thread, which runs only while coarse reads happen (it stops after a second without
   * one and the next read starts it again); {@link TimeSource#nanoTime()} always reads the clock.
   *
   * <pre>{@code
   * TimeSource time = GuardEngine.systemTime();
   * long start = time.nanoTime();
   * }</pre>
   *
   * @return the shared system time source
   */
  public static TimeSource systemTime() {
    return SystemTimeSource.INSTANCE;
  }

  /**
   * Returns the status of the machine this JVM runs on, the default {@linkplain
   * Builder#systemStatus(SystemStatus) system status} of every engine, shared by all of them.
   *
   * <p>CPU usage comes from the first source that works: the process's cgroup v1 ({@code
   * cpuacct.usage}, quota {@code cpu.cfs_quota_us / cpu.cfs_period_us}), its cgroup v2 ({@code
   * cpu.stat}, quota {@code cpu.max}), else {@code OperatingSystemMXBean} (the larger of the
   * process's CPU time share and the system CPU load); load is {@code
   * OperatingSystemMXBean.getSystemLoadAverage()} per usable CPU. A daemon thread samples both
   * once a second while engines read them and ends after three samples in a row that nobody read,
   * so nothing runs while system protection is idle; the next reading starts it again (values
   * read unknown until the first new sample, CPU usage until the second). See {@code
   * docs/BEHAVIOUR.md}.
   *
   * <pre>{@code
   * SystemStatus host = GuardEngine.hostStatus();
   * log.info("CPU source: {}", host.source());
   * }</pre>
   *
   * @return the host's status
   */
  public static SystemStatus hostStatus() {
    return HostSystemStatus.shared();
  }

  /**
   * Starts building an engine.
   *
   * @return a new builder with default settings
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a handle on a resource, resolved once: the one way to call a resource without the
   * {@code Guard} DSL. Enter it through the handle without a name lookup per call. Calls through it enter as {@link EntryType#OUT} with
   * one permit unless the handle's settings say otherwise. See {@link GuardedResource}.
   *
   * <pre>{@code
   * GuardedResource orders = engine.resource("createOrder");
   * Order order = orders.call(request, orderService::create);
   * }</pre>
   *
   * @param resource the resource name
   * @return the handle
   * @throws IllegalArgumentException if {@code resource} is blank
   */
  public GuardedResource resource(String resource) {
    CallSite site =
        new CallSite(core.resolve(checkName(resource)), EntryType.OUT, 1, false, null, "");
    return new GuardedResource(core, site, null);
  }

  /**
   * Returns the rules in force for a resource.
   *
   * @param resource the resource name
   * @return its own rules, in load order (default rules are not listed); empty if none
   */
  public List<Rule> rules(String resource) {
    return core.rules(resource);
  }

  /**
   * Returns the circuit breakers of a resource, one per circuit breaker rule in force (its own, or the
   * default ones, {@link RuleSet#EVERY_RESOURCE}), in rule order: live handles to read their
   * state and to force them open or closed (see {@link CircuitBreaker}).
   *
   * <pre>{@code
   * engine.breakers("payments").forEach(CircuitBreaker::forceOpen);   // maintenance window
   * engine.breakers("payments").forEach(CircuitBreaker::reset);       // back to normal
   * }</pre>
   *
   * @param resource the resource name
   * @return an immutable list of handles; empty when the resource has no circuit breaker rules
   */
  public List<CircuitBreaker> breakers(String resource) {
    return core.breakers(checkName(resource));
  }

  /**
   * Returns the run-time state of a resource's warm-up and per-value rules: how cold each
   * warm-up rule is and which values each per-value rule is limiting now. Read for dashboards
   * and diagnostics; reading changes nothing and costs the calls nothing. Breakers have their own
   * handles ({@link #breakers(String)}); rules of other kinds have no state to show.
   *
   * <pre>{@code
   * engine.ruleStates("profile").forEach(state -> System.out.println(state));
   * // PerValueState[rule=PerValueRule[...], valuesTracked=3, limitedValues=[alice]]
   * }</pre>
   *
   * @param resource the resource name
   * @return the states, warm-up rules first (in flow-rule order), then per-value rules (in
   *     load order); empty for an unknown resource or one without such rules
   */
  public List<RuleState> ruleStates(String resource) {
    return core.ruleStates(checkName(resource));
  }

  /**
   * Makes the engine's rules exactly {@code rules}, for every resource at once, engine-wide rules
   * included (system rules, default breakers and their exclusions): resources the set does not
   * name lose their rules (statistics stay), including rules declared by guards and the parts of
   * attached sources (until a source delivers again). docs/BEHAVIOUR.md, "Installing rules",
   * compares the ways rules reach an engine.
   *
   * <p>The set is applied atomically. It is compiled for every resource first, and a set that
   * fails anywhere changes nothing; then one write switches every resource to it, so each call is
   * decided entirely by the old rules or entirely by the new ones, and once a call has seen the
   * new rules no later call sees the old ones. State built for a rule equal to one in force
   * (warm-up tokens, pacing schedules, breaker states) carries over. The engine remembers the set
   * in its {@linkplain #ruleHistory() history} (source {@value #APPLIED}) and tells its listeners
   * what changed ({@link EngineListener#onRulesApplied}); an invalid set is reported to them too.
   *
   * <pre>{@code
   * engine.apply(RuleSet.of(FlowRule.qps("search", 50), SystemRule.of().withMaxInboundQps(5000)));
   * engine.apply(engine.ruleSet().withRulesOf("search", List.of()));   // one resource changed
   * }</pre>
   *
   * @param rules the engine's whole new rule set
   * @return the new revision, or empty if the rules in force were already equal (nothing recorded)
   * @throws InvalidRulesException if the set cannot be applied (the reasons are in the exception
   *     and listeners hear them); nothing changed
   */
  public Optional<RuleSet.Revision> apply(RuleSet rules) {
    return core.ruleBook().apply(rules, APPLIED);
  }

  /**
   * Returns every rule in force, of every resource and engine-wide, as one set: what {@link
   * #apply} applied, with what sources delivered and guards declared since.
   *
   * @return the rules in force
   */
  public RuleSet ruleSet() {
    return core.ruleBook().current();
  }

  /**
   * Returns the rule sets this engine applied, oldest first: at most the last {@link
   * Builder#ruleHistory} (default 20), each with when and from where it came and what it changed.
   * Deliveries of sources are recorded; declarations of guards are not.
   *
   * @return the revisions, oldest first
   */
  public List<RuleSet.Revision> ruleHistory() {
    return core.ruleBook().history();
  }

  /**
   * Applies the rule set of an earlier revision again, as a new revision (with the same effects
   * as {@link #apply}).
   *
   * <pre>{@code
   * engine.rollBack(engine.ruleHistory().get(0).number());
   * }</pre>
   *
   * @param revision the number of a revision still in the history
   * @return the new revision, or empty if the rules in force were already equal to that one's
   * @throws IllegalArgumentException if the revision is not in the history
   * @throws InvalidRulesException if the set can no longer be applied
   */
  public Optional<RuleSet.Revision> rollBack(long revision) {
    return core.ruleBook().rollBack(revision);
  }

  /**
   * Takes a part of this engine's rules from a source from now on: starts the source, which
   * delivers the part it has now before this method returns, and every later one. Each delivery
   * replaces exactly the rules of {@code part} (atomically, one revision in the {@linkplain
   * #ruleHistory() history} under the source's name); a delivery holding a rule outside the part
   * is invalid and changes nothing. Guards' declarations of rules in the part are replaced by the
   * source's and later ones are left out. Close the source to stop; the rules in force stay, and
   * the part stays the source's for the life of the engine (docs/BEHAVIOUR.md, "Installing
   * rules").
   *
   * <pre>{@code
   * engine.attach(FileRuleSource.of(Path.of("guard-rules.json")), RulePart.all());
   * engine.attach(RedisRuleSource.of(client, "guard:breakers"),
   *     RulePart.kinds(CircuitBreakerRule.class));
   * }</pre>
   *
   * @param source the source; started once
   * @param part the part of the rule set the source owns
   * @throws IllegalArgumentException if {@code part} overlaps the part of a source attached
   *     before; the message names both parts
   * @throws IllegalStateException if the source was started already (also when it was attached to
   *     this engine before)
   */
  public void attach(RuleSource source, RulePart part) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(part, "part");
    String name = Objects.requireNonNull(source.name(), "source.name()");
    Optional<RulePart> before = core.ruleBook().attach(part, source, name);
    if (before.isPresent()) { // attached before: the source refuses a second start
      source.start(new EngineSink(core, threads, name, before.get()));
      throw new IllegalStateException(name + " is attached already");
    }
    try {
      source.start(new EngineSink(core, threads, name, part));
    } catch (IllegalStateException notStarted) {
      core.ruleBook().detach(part);
      throw notStarted;
    }
  }

  private record EngineSink(EngineCore core, ThreadFactory threads, String name, RulePart part)
      implements RuleSource.Sink {

    @Override
    public TimeSource clock() {
      return core.clock();
    }

    @Override
    public RulePart part() {
      return part;
    }

    @Override
    public Optional<RuleSet.Revision> apply(RuleSet rules) {
      return core.ruleBook().applyPart(part, rules, name);
    }

    @Override
    public void invalid(List<InvalidRulesException.Error> errors) {
      core.ruleBook().invalid(name, errors);
    }
  }

  /**
   * Returns the names of the resources this engine tracks.
   *
   * @return an immutable snapshot
   */
  public Set<String> resources() {
    return core.resourceNames();
  }

  /**
   * Returns live statistics of a resource (zero while the resource is unknown).
   *
   * @param resource the resource name
   * @return a live view
   */
  public NodeStats stats(String resource) {
    return ResourceStatsView.of(core, checkName(resource));
  }

  /**
   * Returns live statistics of all inbound ({@link EntryType#IN}) calls of this engine.
   *
   * @return a live view
   */
  public NodeStats inboundStats() {
    return ResourceStatsView.inbound(core);
  }

  /**
   * Returns where this engine's system protection reads CPU usage and load; its {@link
   * SystemStatus#source()} tells which source the machine offered.
   *
   * @return the status source set on the builder, or {@link #hostStatus()}
   */
  public SystemStatus systemStatus() {
    return core.systemStatus();
  }

  /**
   * Returns live statistics of a context name: the sums over the resources entered directly in it.
   *
   * <p>Only resources that record statistics per context contribute: by default those with a rule
   * that measures a context (a ENTRANCE flow rule), every resource when the engine is built with
   * {@link Builder#contextStatistics(boolean) contextStatistics(true)}. Calls of other resources
   * count only on their resources' own statistics, so without CHAIN rules and without that option
   * the view reads zero however much traffic the context carries (docs/BEHAVIOUR.md,
   * "Statistics").
   *
   * <pre>{@code
   * GuardEngine engine = GuardEngine.builder().contextStatistics(true).build();
   * engine.resource("createOrder").context("checkoutApi", "").enter().close();
   * engine.entranceStats("checkoutApi").orElseThrow().totalPass();   // 1
   * }</pre>
   *
   * @param entrance the entrance's name
   * @return a live view, if the context name is known
   */
  public Optional<NodeStats> entranceStats(String entrance) {
    return ResourceStatsView.ofEntrance(core, entrance);
  }

  /**
   * Returns how many times a cap was exceeded (see {@link Cap} for each policy).
   *
   * @param cap the cap
   * @return the overflow count
   */
  public long overflows(Cap cap) {
    return core.overflows(Objects.requireNonNull(cap, "cap"));
  }

  /**
   * Returns where the engine's background threads come from ({@link Builder#threads}), for the
   * add-ons built on the engine (its metrics log, fleet, dashboard), which take their threads from
   * it unless given a factory of their own.
   *
   * @return the thread factory
   */
  public ThreadFactory threads() {
    return threads;
  }

  /**
   * Returns the time source the engine reads and waits through: what code that bounds the time of
   * a call (the DSL's {@code timeout}) measures its deadlines with.
   *
   * @return the engine's time source
   */
  public TimeSource clock() {
    return core.clock();
  }

  /**
   * Returns the engine's time: milliseconds since it was built, the time base of {@link
   * #metricsHistory(String, long, long)}.
   *
   * @return engine time in milliseconds
   */
  public long timeMs() {
    return core.nowMs();
  }

  /** The wall-clock time of the engine's time source, for records people read. */
  Instant wallTime() {
    return core.clock().wallTime();
  }

  /**
   * Closes the engine: the availability listener it registered with its token service is removed,
   * the background metrics recorder stops recording it (its thread ends when no engine is left),
   * and from now on every call passes <em>unchecked</em>: no rule is applied and nothing is
   * recorded, as for a resource over the resource cap (docs/BEHAVIOUR.md, "Closing an engine").
   * Calls admitted before still exit normally (concurrency tokens are given back). Statistics,
   * history and rules stay readable; rules may still be loaded but are not applied. The token
   * service is not closed: it belongs to whoever built it. Idempotent and thread-safe.
   *
   * <pre>{@code
   * try (GuardEngine engine = GuardEngine.builder().tokenService(tokens).build()) {
   *   serve(engine);
   * }
   * }</pre>
   *
   * @throws IllegalStateException for the {@linkplain #shared() shared engine}, which every guard
   *     that is never bound to an engine uses for the life of the process
   */
  @Override
  public void close() {
    if (shared) {
      throw new IllegalStateException("the shared engine cannot be closed: unbound guards use it"
          + " for the life of the process; build an engine of your own to close it");
    }
    core.close();
  }

  /**
   * Returns the token service that decides this engine's cluster-mode flow rules, if it has one
   * ({@link Builder#tokenService}): dashboards show its state and the instances sharing a limit.
   *
   * @return the service
   */
  public Optional<TokenService> tokenService() {
    return Optional.ofNullable(core.tokenService());
  }

  /**
   * Returns the per-second metrics history of a resource: one entry per recorded second whose
   * start lies in {@code [fromMs, toMs)} (engine time, see {@link #timeMs()}), oldest first.
   * Seconds without calls are left out. Reading first records the seconds that closed since the
   * last recording; the span kept is set with {@link Builder#metricsHistory(Duration)}. The exact rules
   * are in docs/BEHAVIOUR.md, "Metrics history".
   *
   * <pre>{@code
   * long now = engine.timeMs();
   * for (PeriodStats second : engine.metricsHistory("checkout", now - 60_000, now)) {
   *   System.out.printf("%d pass=%d refused=%d%n", second.fromMs() / 1000, second.pass(), second.refused());
   * }
   * }</pre>
   *
   * @param resource the resource name
   * @param fromMs the earliest second start, engine time in milliseconds
   * @param toMs the end (exclusive), engine time in milliseconds
   * @return the seconds; empty for a resource without recorded seconds
   */
  public List<PeriodStats> metricsHistory(String resource, long fromMs, long toMs) {
    return core.history(checkName(resource), fromMs, toMs);
  }

  /**
   * Returns the whole retained per-second history of a resource (see {@link #metricsHistory(String,
   * long, long)}).
   *
   * @param resource the resource name
   * @return the seconds, oldest first
   */
  public List<PeriodStats> metricsHistory(String resource) {
    return core.history(checkName(resource), Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * Returns the totals of a resource over every second recorded since the engine was built, also
   * those that have left the history: cumulative counters for a metrics registry. They include
   * every whole second that has closed (the current second is added when it closes). Zeros for a
   * resource without calls.
   *
   * @param resource the resource name
   * @return the totals, from 0 to the end of the last recorded second
   */
  public PeriodStats metricsTotals(String resource) {
    PeriodStats totals = core.totals(checkName(resource));
    return totals != null ? totals : new PeriodStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        PeriodStats.NO_ADAPTIVE_LIMIT);
  }

  /**
   * Records into the metrics history every second that closed since the last recording. Reading
   * the history or the totals does this first, and an engine on the system clock is recorded
   * once a second in the background. An engine on another time source (a manual clock) records
   * only then: call this at least every 30 seconds of its time, or seconds older than the minute
   * window are lost.
   */
  public void recordMetrics() {
    core.collectHistory();
  }

  private static String checkName(String resource) {
    return Checks.notBlank("resource", resource);
  }

  private static final class SharedEngine {
    static final GuardEngine INSTANCE =
        new GuardEngine(builder().build().core, true, Threads.daemons());
  }

  /**
   * Builds a {@link GuardEngine}. Every option may be set at most once (a second value is an
   * error, never "last one wins"), except {@link #listener}, which adds a listener each time.
   *
   * <pre>{@code
   * GuardEngine engine = GuardEngine.builder()
   *     .clock(clock)
   *     .secondWindow(10, Duration.ofSeconds(1))   // 10 buckets of 100 ms
   *     .maxResources(10_000)
   *     .build();
   * }</pre>
   */
  public static final class Builder {

    private @Nullable TimeSource clock;
    private @Nullable Integer sampleCount;
    private @Nullable Duration interval;
    private @Nullable Integer maxResources;
    private @Nullable Integer maxContexts;
    private @Nullable Integer maxOrigins;
    private @Nullable Duration occupyTimeout;
    private @Nullable Boolean contextStatistics;
    private @Nullable Integer ruleHistory;
    private @Nullable SystemStatus systemStatus;
    private @Nullable Duration history;
    private @Nullable Integer historyBudget;
    private System.@Nullable Logger refusalLogger;
    private int refusalLogLines;
    private @Nullable TokenService tokenService;
    private @Nullable ThreadFactory threads;
    private final List<EngineListener> listeners = new ArrayList<>();

    Builder() {}

    /**
     * Sets the time source (default: {@link #systemTime()}).
     *
     * @param timeSource the time source for every read and wait of the engine
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder clock(TimeSource timeSource) {
      Objects.requireNonNull(timeSource, "clock");
      clock = once("clock", clock, timeSource);
      return this;
    }

    /**
     * Sets where the engine's background threads come from (default: platform threads made by
     * guard), for an application server's managed threads or a platform's virtual threads. guard
     * names each thread for its role ({@code guard-metrics-log}, ...) and makes it a daemon. The
     * add-ons built on the engine take their threads from it too ({@link GuardEngine#threads()}),
     * and so do the loops one process shares between its engines (the coarse clock's ticker, the
     * metrics recorder, the host status sampler, the DSL's call deadlines), which take the factory
     * of the first engine built with one (docs/BEHAVIOUR.md, "Background threads").
     *
     * @param factory makes an unstarted thread for a task; never returns null
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder threads(ThreadFactory factory) {
      Objects.requireNonNull(factory, "threads");
      threads = once("threads", threads, factory);
      return this;
    }

    /**
     * Sets the geometry of every node's second-level window (default 2 buckets over 1 s). More
     * buckets make QPS limits tighter across bucket boundaries: a limit of N admits at most N per
     * current-plus-previous buckets.
     *
     * <p>Each bucket ({@code length / buckets}) must divide one second, because the minute-level
     * totals are rolled up from the second-level buckets and every bucket must fall inside one
     * second: 2 buckets over 1 s or 4 over 2 s are fine, 3 buckets over 900 ms (300 ms) is not.
     *
     * @param buckets the number of buckets; {@code > 0}
     * @param length the window length; whole milliseconds divisible by {@code buckets}, with a
     *     bucket length that divides 1000 ms
     * @return this builder
     * @throws IllegalArgumentException if the geometry is invalid, or its bucket length does not
     *     divide 1000 ms
     * @throws IllegalStateException if already set
     */
    public Builder secondWindow(int buckets, Duration length) {
      Objects.requireNonNull(length, "length");
      if (length.toNanos() % 1_000_000L != 0 || length.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("length must be whole milliseconds, was " + length);
      }
      StatisticNode.requireRollUpGeometry(
          new WindowGeometry(buckets, (int) length.toMillis()), "secondWindow");
      sampleCount = once("secondWindow", sampleCount, buckets);
      interval = length;
      return this;
    }

    /**
     * Sets the most resources with statistics (default 6000); see {@link Cap#RESOURCES}.
     *
     * @param max the cap; {@code > 0}
     * @return this builder
     */
    public Builder maxResources(int max) {
      maxResources = once("maxResources", maxResources, positive("maxResources", max));
      return this;
    }

    /**
     * Sets the most distinct context names (default 2000); see {@link Cap#CONTEXTS}.
     *
     * @param max the cap; {@code > 0}
     * @return this builder
     */
    public Builder maxContexts(int max) {
      maxContexts = once("maxContexts", maxContexts, positive("maxContexts", max));
      return this;
    }

    /**
     * Sets the most origin nodes per resource (default 1000); see {@link Cap#ORIGINS}.
     *
     * @param max the cap; {@code > 0}
     * @return this builder
     */
    public Builder maxOriginsPerResource(int max) {
      maxOrigins = once("maxOriginsPerResource", maxOrigins, positive("maxOriginsPerResource", max));
      return this;
    }

    /**
     * Sets the longest wait of a prioritized call that borrows from a future bucket (default
     * 500 ms; from 0 to the second window's length).
     *
     * @param timeout the bound
     * @return this builder
     */
    public Builder occupyTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "occupyTimeout");
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("occupyTimeout must not be negative, was " + timeout);
      }
      occupyTimeout = once("occupyTimeout", occupyTimeout, timeout);
      return this;
    }

    /**
     * Sets whether every resource records statistics per context (entrance) name. By default only
     * resources with a rule that measures a context (a ENTRANCE flow rule) record them, because they
     * cost a second write of every event on the call path; {@link NodeStats#context} and
     * {@link GuardEngine#entranceStats} then read zero for the other resources. Turn this on to
     * see every resource per entrance.
     *
     * @param enabled whether to record per-context statistics for every resource
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder contextStatistics(boolean enabled) {
      contextStatistics = once("contextStatistics", contextStatistics, enabled);
      return this;
    }

    /**
     * Sets how many applied rule sets the engine remembers for {@link GuardEngine#ruleHistory}
     * and {@link GuardEngine#rollBack} (default 20).
     *
     * @param revisions the most revisions kept; {@code > 0}
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder ruleHistory(int revisions) {
      ruleHistory = once("ruleHistory", ruleHistory, positive("ruleHistory", revisions));
      return this;
    }

    /**
     * Sets where system protection reads CPU usage and load (default {@link #hostStatus()}).
     * Tests pass the test kit's {@code FakeSystemStatus}.
     *
     * @param status the status source
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder systemStatus(SystemStatus status) {
      Objects.requireNonNull(status, "systemStatus");
      systemStatus = once("systemStatus", systemStatus, status);
      return this;
    }

    /**
     * Sets how much per-second metrics history each resource keeps (default 5 minutes; {@link
     * Duration#ZERO} keeps only the totals). See {@link GuardEngine#metricsHistory(String, long,
     * long)}.
     *
     * @param span whole seconds, at most one hour
     * @return this builder
     * @throws IllegalArgumentException if negative, over an hour or not whole seconds
     * @throws IllegalStateException if already set
     */
    public Builder metricsHistory(Duration span) {
      Objects.requireNonNull(span, "metricsHistory");
      if (span.isNegative() || span.compareTo(Duration.ofHours(1)) > 0
          || span.toMillis() % 1000 != 0) {
        throw new IllegalArgumentException(
            "metricsHistory must be whole seconds from 0 to 1 hour, was " + span);
      }
      history = once("metricsHistory", history, span);
      return this;
    }

    /**
     * Sets the most seconds of metrics history all resources hold together (default 300,000,
     * about 30 MB at most: 5 minutes of 1000 busy resources). Beyond it a resource's history stops
     * growing and keeps its most recent seconds ({@link Cap#HISTORY}).
     *
     * @param seconds resource-seconds; {@code > 0}
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder metricsHistoryBudget(int seconds) {
      historyBudget =
          once("metricsHistoryBudget", historyBudget, positive("metricsHistoryBudget", seconds));
      return this;
    }

    /**
     * Writes the refusal log to a {@link System.Logger} as well as to the listeners ({@link
     * EngineListener#onRefusals}): one INFO line per resource and second with refusals, at most
     * {@code maxLinesPerSecond} lines each time seconds are recorded (recording runs at most once
     * a second) plus one line counting the rest. Off by default.
     *
     * <pre>{@code
     * builder.refusalLog(System.getLogger("guard.refusals"), 20);
     * // guard refusals: resource=checkout second=75 refused=31 flow=29 origin=2 origins={bot=2}
     * }</pre>
     *
     * @param logger the logger
     * @param maxLinesPerSecond the most lines per recording; {@code > 0}
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder refusalLog(System.Logger logger, int maxLinesPerSecond) {
      Objects.requireNonNull(logger, "logger");
      positive("maxLinesPerSecond", maxLinesPerSecond);
      refusalLogger = once("refusalLog", refusalLogger, logger);
      refusalLogLines = maxLinesPerSecond;
      return this;
    }

    /**
     * Sets the token service that decides cluster-mode flow rules (default: none, so cluster rules
     * fall back as their {@link dev.guard.api.rule.ClusterMode#fallbackToLocal()} says).
     *
     * @param service the token service shared with the other instances
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder tokenService(TokenService service) {
      Objects.requireNonNull(service, "tokenService");
      tokenService = once("tokenService", tokenService, service);
      return this;
    }

    /**
     * Adds a listener for engine events.
     *
     * @param listener the listener
     * @return this builder
     */
    public Builder listener(EngineListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * Builds the engine.
     *
     * @return a new engine
     * @throws IllegalArgumentException if the occupy timeout exceeds the second window
     */
    public GuardEngine build() {
      WindowGeometry window =
          sampleCount == null
              ? WindowGeometry.SECOND_DEFAULT
              : new WindowGeometry(sampleCount, (int) Objects.requireNonNull(interval).toMillis());
      long occupyMs = occupyTimeout == null ? 500 : occupyTimeout.toMillis();
      if (occupyMs > window.intervalMs()) {
        throw new IllegalArgumentException("occupyTimeout must be at most the second window ("
            + window.intervalMs() + " ms), was " + occupyMs + " ms");
      }
      EngineConfig config = new EngineConfig(window,
          maxResources == null ? 6000 : maxResources,
          maxContexts == null ? 2000 : maxContexts,
          maxOrigins == null ? 1000 : maxOrigins,
          occupyMs,
          Boolean.TRUE.equals(contextStatistics),
          history == null ? 300 : (int) history.toSeconds(),
          historyBudget == null ? 300_000 : historyBudget,
          ruleHistory == null ? 20 : ruleHistory,
          refusalLogger,
          refusalLogLines);
      TimeSource time = clock == null ? SystemTimeSource.INSTANCE : clock;
      ThreadFactory factory = threads == null ? Threads.daemons() : threads;
      Threads.offerShared(factory);
      EngineCore core = new EngineCore(time, config, listeners,
          systemStatus == null ? HostSystemStatus.shared() : systemStatus, tokenService);
      if (time == SystemTimeSource.INSTANCE) {
        MetricsRecorder.watch(core); // a manual clock's engine records when its test says so
      }
      return new GuardEngine(core, false, factory);
    }

    private static <T> T once(String option, @Nullable T current, T value) {
      if (current != null) {
        throw new IllegalStateException(option + " is already set to " + current);
      }
      return value;
    }

    private static int positive(String option, int value) {
      if (value <= 0) {
        throw new IllegalArgumentException(option + " must be > 0, was " + value);
      }
      return value;
    }
  }
}
