package dev.guard.micrometer;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.Rule;
import dev.guard.api.RefusedException;
import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.api.PeriodStats;
import dev.guard.api.rule.RuleSet;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import dev.guard.api.rule.RuleState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a {@link GuardEngine}'s metrics to Micrometer: per resource, cumulative call counts by
 * outcome and by the kind of protection that refused, response times and concurrency; per engine,
 * cap overflows and rule reloads.
 *
 * <pre>{@code
 * GuardMetrics.of(engine).bindTo(registry);
 * GuardMetrics.builder(engine).maxResources(200).build().bindTo(registry);   // fewer resources
 * }</pre>
 *
 * <p>Meters (Prometheus names in parentheses):
 *
 * <ul>
 *   <li>{@value #CALLS} ({@code guard_calls_total}), tags {@code resource} and {@code outcome}:
 *       {@code passed} (admitted), {@code succeeded} (completed without a traced business error),
 *       {@code failed} (completed with one). Function counters over the engine's {@linkplain
 *       GuardEngine#metricsTotals totals}, so they include every whole second that has closed;
 *   <li>{@value #REFUSED} ({@code guard_calls_refused_total}), tags {@code resource} and {@code
 *       kind}: {@code flow}, {@code per-value}, {@code circuit-breaker}, {@code system}, {@code
 *       origin}, {@code adaptive-concurrency};
 *   <li>{@value #DURATION} ({@code guard_call_duration_seconds_count}/{@code _sum}), tag {@code
 *       resource}: a function timer of the completed calls and their summed response time;
 *   <li>{@value #CONCURRENCY} ({@code guard_concurrency}), tag {@code resource}: calls running now;
 *   <li>{@value #BREAKER_STATE} ({@code guard_breaker_state}), tags {@code resource}, {@code
 *       breaker} (the breaker's position in {@link GuardEngine#breakers}) and {@code state}
 *       ({@code closed}, {@code open}, {@code half-open}, {@code forced-open}, {@code
 *       forced-closed}): 1 for the breaker's current state, 0 for the others;
 *   <li>{@value #CONCURRENCY_LIMIT} ({@code guard_concurrency_limit}), tag {@code resource}: the
 *       limit an adaptive concurrency rule has found, for resources that have one (registered
 *       when the rule is first seen; NaN once the rule is gone);
 *   <li>{@value #OVERFLOWS} ({@code guard_cap_overflows_total}), tag {@code cap};
 *   <li>{@value #RELOADS} ({@code guard_rule_reloads_total}): rule sets the engine applied since
 *       it started (the number of its latest {@linkplain GuardEngine#ruleHistory revision}: from
 *       rule sources, {@code engine.apply(..)} and roll-backs);
 *   <li>{@value #RESOURCES} ({@code guard_resources}): resources with metrics.
 * </ul>
 *
 * <p>Cardinality is bounded: only resources the engine tracks (at most its resource cap) get
 * meters, and at most {@code maxResources} of them (default 1000); the rest are counted in the
 * engine's totals but not published. Resources are registered when the binder is bound and
 * whenever the {@value #RESOURCES} gauge is read (every scrape), so a resource
 * first called after binding appears from the next scrape on.
 */
public final class GuardMetrics implements MeterBinder {

  /** Call counts by outcome. */
  public static final String CALLS = "guard.calls";
  /** Refused calls by kind of protection. */
  public static final String REFUSED = "guard.calls.refused";
  /** Response time of completed calls. */
  public static final String DURATION = "guard.call.duration";
  /** Calls running now. */
  public static final String CONCURRENCY = "guard.concurrency";
  /** The limit of an adaptive concurrency rule. */
  public static final String CONCURRENCY_LIMIT = "guard.concurrency.limit";
  /** The state of each circuit breaker: 1 for its current state, 0 for the others. */
  public static final String BREAKER_STATE = "guard.breaker.state";
  /** Overflows of the engine's bounded collections. */
  public static final String OVERFLOWS = "guard.cap.overflows";
  /** Rule replacements. */
  public static final String RELOADS = "guard.rule.reloads";
  /** Resources with published metrics. */
  public static final String RESOURCES = "guard.resources";

  private final GuardEngine engine;
  private final int maxResources;
  private final Set<String> registered = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> breakerGauges = new ConcurrentHashMap<>();
  private final Set<String> limitGauges = ConcurrentHashMap.newKeySet();
  private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();

  private GuardMetrics(GuardEngine engine, int maxResources) {
    this.engine = engine;
    this.maxResources = maxResources;
  }

  /**
   * Returns a binder that publishes an engine's metrics, for at most 1000 resources.
   *
   * @param engine the engine
   * @return the binder; bind it to one or more registries
   */
  public static GuardMetrics of(GuardEngine engine) {
    return builder(engine).build();
  }

  /**
   * Starts configuring a binder for an engine.
   *
   * <pre>{@code
   * GuardMetrics.builder(engine).maxResources(200).build().bindTo(registry);
   * }</pre>
   *
   * @param engine the engine
   * @return a new builder
   */
  public static Builder builder(GuardEngine engine) {
    return new Builder(Objects.requireNonNull(engine, "engine"));
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    GuardEngine watched = engine;
    registries.add(registry);
    for (Cap cap : Cap.values()) {
      FunctionCounter.builder(OVERFLOWS, watched, e -> e.overflows(cap))
          .tag("cap", cap.name().toLowerCase(Locale.ROOT).replace('_', '-'))
          .description("Overflows of the engine's bounded collections")
          .register(registry);
    }
    FunctionCounter.builder(RELOADS, watched, GuardMetrics::appliedRuleSets)
        .description("Rule sets the engine applied")
        .register(registry);
    Gauge.builder(RESOURCES, this, GuardMetrics::refresh)
        .description("Resources with published guard metrics")
        .register(registry);
    refresh();
  }

  /** The number of the engine's latest rule revision: how many rule sets it applied. */
  private static double appliedRuleSets(GuardEngine engine) {
    List<RuleSet.Revision> history = engine.ruleHistory();
    return history.isEmpty() ? 0 : history.get(history.size() - 1).number();
  }

  /** Registers meters for resources that do not have them yet; returns the published count. */
  private double refresh() {
    GuardEngine watched = engine;
    for (String resource : watched.resources()) {
      if (!registered.contains(resource) && registered.size() < maxResources
          && registered.add(resource)) {
        for (MeterRegistry registry : registries) {
          register(watched, resource, registry);
        }
      }
      if (registered.contains(resource)) {
        registerBreakers(watched, resource);
        registerLimit(watched, resource);
      }
    }
    return registered.size();
  }

  /** Registers the limit gauge of a resource that has an adaptive concurrency rule now. */
  private void registerLimit(GuardEngine watched, String resource) {
    if (limitGauges.contains(resource) || Double.isNaN(adaptiveLimit(watched, resource))
        || !limitGauges.add(resource)) {
      return;
    }
    for (MeterRegistry registry : registries) {
      Gauge.builder(CONCURRENCY_LIMIT, watched, e -> adaptiveLimit(e, resource))
          .tags("resource", resource)
          .description("The limit an adaptive concurrency rule has found")
          .register(registry);
    }
  }

  private static double adaptiveLimit(GuardEngine engine, String resource) {
    for (RuleState state : engine.ruleStates(resource)) {
      if (state instanceof RuleState.AdaptiveConcurrencyState adaptive) {
        return adaptive.limit();
      }
    }
    return Double.NaN;
  }

  /** Registers state gauges for breakers of a resource beyond those already registered. */
  private synchronized void registerBreakers(GuardEngine watched, String resource) {
    int count = watched.breakers(resource).size();
    int done = breakerGauges.getOrDefault(resource, 0);
    for (int index = done; index < count; index++) {
      int position = index;
      for (CircuitBreaker.State state : CircuitBreaker.State.values()) {
        for (MeterRegistry registry : registries) {
          Gauge.builder(BREAKER_STATE, watched, e -> {
                List<CircuitBreaker> breakers = e.breakers(resource);
                return position < breakers.size() && breakers.get(position).state() == state
                    ? 1 : 0;
              })
              .tags("resource", resource, "breaker", String.valueOf(position), "state",
                  state.name().toLowerCase(Locale.ROOT).replace('_', '-'))
              .description("Circuit breaker state: 1 for the current state")
              .register(registry);
        }
      }
    }
    if (count > done) {
      breakerGauges.put(resource, count);
    }
  }

  private static void register(GuardEngine engine, String resource, MeterRegistry registry) {
    Tags tags = Tags.of("resource", resource);
    counter(registry, CALLS, engine, resource, tags.and("outcome", "passed"), PeriodStats::pass);
    counter(registry, CALLS, engine, resource, tags.and("outcome", "succeeded"),
        totals -> totals.success() - totals.exception());
    counter(registry, CALLS, engine, resource, tags.and("outcome", "failed"),
        PeriodStats::exception);
    for (RefusedException.Kind kind : RefusedException.Kind.values()) {
      counter(registry, REFUSED, engine, resource, tags.and("kind", kind.tag()),
          totals -> totals.refused(kind));
    }
    FunctionTimer.builder(DURATION, engine,
            e -> e.metricsTotals(resource).success(),
            e -> e.metricsTotals(resource).rtSumMs(), TimeUnit.MILLISECONDS)
        .tags(tags)
        .description("Response time of completed calls")
        .register(registry);
    Gauge.builder(CONCURRENCY, engine, e -> e.stats(resource).concurrency())
        .tags(tags)
        .description("Calls running now")
        .register(registry);
  }

  private static void counter(MeterRegistry registry, String name, GuardEngine engine,
      String resource, Tags tags, ToDoubleFunction<PeriodStats> read) {
    FunctionCounter.builder(name, engine, e -> read.applyAsDouble(e.metricsTotals(resource)))
        .tags(tags)
        .description(name.equals(CALLS) ? "Calls by outcome" : "Refused calls by kind")
        .register(registry);
  }

  /** Configures a {@link GuardMetrics}. */
  public static final class Builder {

    private final GuardEngine engine;
    private int maxResources = 1000;
    private boolean maxResourcesSet;

    private Builder(GuardEngine engine) {
      this.engine = engine;
    }

    /**
     * Sets the most resources that get meters (default 1000); the rest are counted in the
     * engine's totals but not published.
     *
     * @param max the bound; {@code > 0}
     * @return this builder
     * @throws IllegalArgumentException if not positive
     * @throws IllegalStateException if already set
     */
    public Builder maxResources(int max) {
      if (max <= 0) {
        throw new IllegalArgumentException("maxResources must be > 0, was " + max);
      }
      if (maxResourcesSet) {
        throw new IllegalStateException("maxResources is already set");
      }
      this.maxResources = max;
      this.maxResourcesSet = true;
      return this;
    }

    /**
     * Builds the binder.
     *
     * @return a binder for the engine, not bound to a registry yet
     */
    public GuardMetrics build() {
      return new GuardMetrics(engine, maxResources);
    }
  }
}
