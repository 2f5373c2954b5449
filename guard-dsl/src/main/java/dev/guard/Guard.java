package dev.guard;

import dev.guard.api.RefusedException;
import dev.guard.api.internal.Checks;
import dev.guard.api.EntryType;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.Shaping;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowMetric;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.FlowStrategy;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.WarmUp;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource.CheckedFunction;
import io.vavr.control.Either;
import io.vavr.control.Try;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * An immutable declaration of protections for a resource, and the way to run code under them.
 *
 * <pre>{@code
 * Supplier<Order> create = Guard.of("createOrder")
 *     .qps(100).warmUp(Duration.ofSeconds(10))
 *     .on(engine)
 *     .decorate(() -> orders.create(request));
 * }</pre>
 *
 * <p>Every method returns a new {@code Guard}; a partial guard can serve as a template for
 * variants. Rule steps ({@link #qps}, {@link #concurrency}, {@link #perValue}, {@link
 * #perValueConcurrency}, {@link #allowOrigins}, {@link #denyOrigins}, {@link #circuitBreaker},
 * {@link #slowCallRatio}, {@link #errorRatio}, {@link #errorCount}) add a rule each; shaping and
 * scoping steps ({@link #warmUp}, {@link #pacing}, {@link #origin}, {@link #relatedTo}, {@link
 * #fromEntrance}, {@link #burst}, {@link #period}, {@link #except}, {@link #valueType}, {@link
 * #maxValues}, {@link #openFor}) change the most recent rule. The rules are declared on the engine
 * the first time the guard is used there: an identical declaration is a no-op, a different one
 * replaces the resource's rules (the engine's listeners hear of it). A guard without rules leaves
 * the resource's rules as they are, so it can enter resources configured through {@link
 * GuardEngine#apply} or a rule source; a declared rule in an attached source's part gives way to
 * the source's (docs/BEHAVIOUR.md, "Installing rules"). An unbound guard uses {@link GuardEngine#shared()}.
 *
 * <p>A refused call throws a {@link RefusedException} subclass and the code does not run.
 * Exceptions of the code pass through unchanged (the same instance) and are counted as business
 * errors, unless {@link #ignoreExceptions}, {@link #recordExceptions} or {@link
 * #recordExceptionsIf} say otherwise; {@link #decorateOrRecover} turns refusals and business
 * errors into a fallback value. Calls enter as {@link EntryType#OUT} unless {@link #entryType}
 * says otherwise; only {@link EntryType#IN} calls count in the engine's inbound statistics and
 * system protection (system rules of the engine's rule set). Guards are thread-safe.
 *
 * <p>This class is longer than the project's usual files because it is the DSL's one entry point:
 * each step and decorator is a short method with its documentation, and the work is done by
 * {@code GuardPart} (declarations) and {@code Binding} (calls).
 */
public final class Guard {

  private final List<GuardPart> parts;
  private final @Nullable GuardEngine engine;
  private volatile @Nullable Binding binding;

  private Guard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    this.parts = List.copyOf(parts);
    this.engine = engine;
  }

  /**
   * Starts a guard for one resource, with no rules.
   *
   * @param resource the resource name
   * @return the guard
   * @throws NullPointerException if {@code resource} is null
   * @throws IllegalArgumentException if {@code resource} is blank
   */
  public static Guard of(String resource) {
    return new Guard(List.of(GuardPart.of(Checks.notBlank("resource", resource))), null);
  }

  /**
   * Adds a rule admitting at most {@code qps} calls per second (fast reject unless shaped by
   * {@link #warmUp} or {@link #pacing}).
   *
   * @param qps calls per second; finite and {@code >= 0} (0 refuses every call)
   * @return the new guard
   * @throws IllegalArgumentException if {@code qps} is negative, NaN or infinite
   */
  public Guard qps(double qps) {
    Checks.finiteNonNegative("qps", qps);
    return withLast(last().withRule(FlowRule.qps(last().resource(), qps)));
  }

  /**
   * Adds a rule admitting at most {@code qps} calls per second; the same as {@link #qps(double)},
   * for whole numbers ({@code qps(100)} from Kotlin, where an {@code Int} is not a {@code Double}).
   *
   * @param qps calls per second; {@code >= 0} (0 refuses every call)
   * @return the new guard
   * @throws IllegalArgumentException if {@code qps} is negative
   */
  public Guard qps(int qps) {
    return qps((double) Checks.nonNegative("qps", qps));
  }

  /**
   * Adds a rule admitting at most {@code limit} calls running at once.
   *
   * @param limit concurrent calls; {@code >= 0}
   * @return the new guard
   * @throws IllegalArgumentException if {@code limit} is negative
   */
  public Guard concurrency(int limit) {
    Checks.nonNegative("concurrency", limit);
    return withLast(last().withRule(FlowRule.concurrency(last().resource(), limit)));
  }

  /**
   * Makes the most recent {@code qps} rule warm up over {@code period} with the default cold
   * factor 3: a cold resource admits {@code qps / 3} per second, climbing to {@code qps}.
   *
   * @param period the warm-up period; positive
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a {@code qps} rule
   * @throws IllegalArgumentException if {@code period} is not positive
   */
  public Guard warmUp(Duration period) {
    return warmUp(period, WarmUp.DEFAULT_COLD_FACTOR);
  }

  /**
   * Makes the most recent {@code qps} rule warm up over {@code period}: a cold resource admits
   * {@code qps / coldFactor} per second, climbing to {@code qps} as traffic flows.
   *
   * @param period the warm-up period; positive
   * @param coldFactor how much slower the cold rate is; greater than 1
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a {@code qps} rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public Guard warmUp(Duration period, int coldFactor) {
    Objects.requireNonNull(period, "period");
    return shapeLastQps("warmUp", rule -> rule.withWarmUp(period, coldFactor));
  }

  /**
   * Makes the most recent {@code qps} or {@code concurrency} rule a cluster rule: the engine's
   * token service (see {@code GuardEngine.Builder#tokenService}) decides it for every instance
   * with the same flow id, a QPS rule from a shared window, a concurrency rule from shared
   * concurrency tokens. When the service fails or is absent, the rule is checked locally or
   * passes, as {@code mode} says. A cluster rule neither warms up nor paces.
   *
   * @param mode the flow id, threshold type, fallback and window
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a {@code qps} or {@code
   *     concurrency} rule
   * @throws IllegalArgumentException if the rule warms up or paces
   */
  public Guard cluster(ClusterMode mode) {
    Objects.requireNonNull(mode, "mode");
    return clusterLast("cluster", rule -> mode);
  }

  /**
   * Makes the most recent {@code qps} or {@code concurrency} rule one threshold for the whole
   * cluster, shared under the resource's name as flow id, checked locally when the token service
   * fails: {@code Guard.of("export").concurrency(4).clusterWide()} lets 4 exports run at once in
   * the whole cluster.
   *
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a {@code qps} or {@code
   *     concurrency} rule
   * @throws IllegalArgumentException if the rule warms up or paces
   */
  public Guard clusterWide() {
    return clusterLast("clusterWide", rule -> ClusterMode.global(rule.resource()));
  }

  /**
   * Makes the most recent {@code qps} or {@code concurrency} rule a per-instance share of a
   * cluster threshold: the cluster admits the count times the live instances, under the
   * resource's name as flow id, checked locally when the token service fails.
   *
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a {@code qps} or {@code
   *     concurrency} rule
   * @throws IllegalArgumentException if the rule warms up or paces
   */
  public Guard perInstance() {
    return clusterLast("perInstance", rule -> ClusterMode.perInstance(rule.resource()));
  }

  /**
   * Makes the most recent {@code qps} rule pace calls {@code 1 / qps} seconds apart. A call that
   * would wait longer than {@code maxQueueing} is refused at once; the others wait (through the
   * engine's time source) for their turn. {@link Duration#ZERO} means strict spacing without
   * waiting. Combined with {@link #warmUp}, the spacing follows the warm-up rate. After {@link
   * #perValue}, each value's calls are paced on their own, {@code period / count} apart.
   *
   * @param maxQueueing the longest wait; zero or positive
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a {@code qps} or {@code perValue}
   *     rule
   * @throws IllegalArgumentException if {@code maxQueueing} is negative
   */
  public Guard pacing(Duration maxQueueing) {
    Objects.requireNonNull(maxQueueing, "maxQueueing");
    if (last().lastRule() instanceof PerValueRule) {
      return shapeLastPerValue("pacing", FlowMetric.QPS, rule -> rule.withPacing(maxQueueing));
    }
    return shapeLastQps("pacing", rule -> rule.withMaxQueueingTime(maxQueueing)
        .withShaping(Shaping.PACING));
  }

  /**
   * Scopes the most recent rule to callers: {@code "default"} (everyone), {@code "other"}
   * (origins no other rule of this resource names) or one origin name.
   *
   * @param app the callers the rule applies to
   * @return the new guard
   * @throws IllegalStateException if the guard has no rule yet
   */
  public Guard fromOrigin(String app) {
    Objects.requireNonNull(app, "app");
    return withLast(last().mapLastRule("fromOrigin", FlowRule.class, rule -> rule.withOrigin(app)));
  }

  /**
   * Makes the most recent rule measure another resource: this one is limited when that one is
   * busy (the RELATED strategy). The rule does not apply until the other resource is entered.
   *
   * @param otherResource the resource whose statistics are measured
   * @return the new guard
   * @throws IllegalStateException if the guard has no rule yet
   */
  public Guard relatedTo(String otherResource) {
    return withLast(last().mapLastRule("relatedTo", FlowRule.class,
        rule -> rule.withStrategy(FlowStrategy.RELATED, otherResource)));
  }

  /**
   * Makes the most recent rule apply only to calls made under the named context (entrance),
   * measured on this resource's node for that context (the ENTRANCE strategy).
   *
   * @param contextName the entrance name
   * @return the new guard
   * @throws IllegalStateException if the guard has no rule yet
   */
  public Guard fromEntrance(String contextName) {
    return withLast(last().mapLastRule("fromEntrance", FlowRule.class,
        rule -> rule.withStrategy(FlowStrategy.ENTRANCE, contextName)));
  }

  /**
   * Admits only calls from the listed caller origins (a white list); calls without an origin pass
   * too. Other origins are refused with {@link dev.guard.api.OriginRefusedException}, which
   * names the origin. The origin of a call comes from the context it runs in (an enclosing guard's
   * or handle's) or from {@link #origin}.
   *
   * <pre>{@code
   * Supplier<Report> admin = Guard.of("admin").allowOrigins("ops-console", "billing")
   *     .decorate(reports::build);
   * }</pre>
   *
   * @param origins the admitted origins; each may be a comma-separated list; names are trimmed
   * @return the new guard
   * @throws IllegalArgumentException if no origin is given or a name is blank
   * @throws IllegalStateException if this resource already has an origin list (it has at most
   *     one)
   */
  public Guard allowOrigins(String... origins) {
    return withAuthority("allowOrigins", OriginRule.allow(last().resource(), origins));
  }

  /**
   * Refuses calls from the listed caller origins (a black list) with {@link
   * dev.guard.api.OriginRefusedException}; other calls pass.
   *
   * <pre>{@code
   * Guard search = Guard.of("search").denyOrigins("scraper").qps(100);
   * }</pre>
   *
   * @param origins the refused origins; each may be a comma-separated list; names are trimmed
   * @return the new guard
   * @throws IllegalArgumentException if no origin is given or a name is blank
   * @throws IllegalStateException if this resource already has an origin list (it has at most
   *     one)
   */
  public Guard denyOrigins(String... origins) {
    return withAuthority("denyOrigins", OriginRule.deny(last().resource(), origins));
  }

  /**
   * Sets the caller origin of calls made through this guard on a thread without a context (the
   * context of an enclosing call wins).
   *
   * @param callerOrigin the caller's identity; empty for unknown
   * @return the new guard
   */
  public Guard origin(String callerOrigin) {
    Objects.requireNonNull(callerOrigin, "origin");
    return withLast(last().withOrigin(callerOrigin));
  }

  /**
   * Sets the context (entrance) name of calls made through this guard on a thread without a
   * context (the context of an enclosing call wins); calls nested in this one run in it too.
   *
   * @param contextName the entrance name; not blank
   * @return the new guard
   * @throws IllegalArgumentException if {@code contextName} is blank
   */
  public Guard entrance(String contextName) {
    Checks.notBlank("entrance", contextName);
    return withLast(last().withEntrance(contextName));
  }

  /**
   * Sets the direction of calls (default {@link EntryType#OUT}); {@link EntryType#IN} calls are
   * counted in the engine's inbound statistics, and only they are checked by system protection
   * (the system rules of the engine's rule set): mark the calls that serve requests arriving at this
   * service as {@code IN}.
   *
   * @param type the entry type
   * @return the new guard
   */
  public Guard entryType(EntryType type) {
    return withLast(last().withType(Objects.requireNonNull(type, "type")));
  }

  /**
   * Lets calls over a QPS limit borrow a pass from the next window bucket and wait for it (at most
   * the engine's occupy timeout) instead of being refused.
   *
   * @return the new guard
   */
  public Guard prioritized() {
    return withLast(last().asPrioritized());
  }

  /**
   * Adds a circuit breaker: stop calling the resource while it fails or is slow, then probe it
   * back to health. Each call adds one breaker; a resource may have several.
   *
   * <pre>{@code
   * Guard.of("inventory")
   *     .qps(200)
   *     .circuitBreaker(b -> b.slowCallRatio(0.5).slowerThan(Duration.ofMillis(300))
   *         .minCalls(10).window(Duration.ofSeconds(10)).openFor(Duration.ofSeconds(5)));
   * }</pre>
   *
   * <p>An open breaker refuses calls with a {@link dev.guard.api.CircuitBreakerRefusedException}, whose
   * {@code retryAfter()} tells when the next probe is allowed.
   *
   * @param breaker sets up the breaker from the defaults (see {@link CircuitBreakerSpec})
   * @return the new guard
   * @throws IllegalStateException if the spec has no strategy or an incomplete slow-call setting
   * @throws IllegalArgumentException if the settings do not make a valid rule
   */
  public Guard circuitBreaker(UnaryOperator<CircuitBreakerSpec> breaker) {
    Objects.requireNonNull(breaker, "breaker");
    CircuitBreakerSpec spec =
        Objects.requireNonNull(breaker.apply(CircuitBreakerSpec.defaults()), "breaker result");
    return withLast(last().withRule(spec.toRule(last().resource())));
  }

  /**
   * Adds a circuit breaker that opens when more than {@code ratio} of the calls in its window
   * (at least 5 calls over the last second) are slower than {@code slowerThan}; it stays open
   * 10 s unless {@link #openFor} says otherwise. For other settings use {@link #circuitBreaker}.
   *
   * @param ratio the share of slow calls, in {@code [0, 1]}
   * @param slowerThan a call slower than this is slow
   * @return the new guard
   * @throws IllegalArgumentException if a value is invalid
   */
  public Guard slowCallRatio(double ratio, Duration slowerThan) {
    Objects.requireNonNull(slowerThan, "slowerThan");
    return circuitBreaker(b -> b.slowCallRatio(ratio).slowerThan(slowerThan));
  }

  /**
   * Adds a circuit breaker that opens when more than {@code ratio} of the calls in its window
   * (at least 5 calls over the last second) failed; it stays open 10 s unless {@link #openFor}
   * says otherwise.
   *
   * <pre>{@code
   * Guard.of("payments").errorRatio(0.3).openFor(Duration.ofSeconds(10));
   * }</pre>
   *
   * @param ratio the share of failed calls, in {@code [0, 1]}
   * @return the new guard
   * @throws IllegalArgumentException if {@code ratio} is not in {@code [0, 1]}
   */
  public Guard errorRatio(double ratio) {
    return circuitBreaker(b -> b.errorRatio(ratio));
  }

  /**
   * Adds a circuit breaker that opens when more than {@code count} calls failed in its window
   * (the last second, once it holds at least 5 calls); it stays open 10 s unless {@link #openFor}
   * says otherwise.
   *
   * @param count the failed calls tolerated; {@code >= 0}
   * @return the new guard
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public Guard errorCount(int count) {
    return circuitBreaker(b -> b.errorCount(count));
  }

  /**
   * Sets how long the most recent circuit breaker stays open before it lets a probe through.
   *
   * @param duration the open duration; positive whole milliseconds
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a circuit breaker
   * @throws IllegalArgumentException if {@code duration} is invalid
   */
  public Guard openFor(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    return withLast(last().mapLastRule("openFor", CircuitBreakerRule.class,
        rule -> rule.withOpenFor(duration)));
  }

  /**
   * Counts only exceptions of these types (or their subtypes) as business errors, for statistics
   * and circuit breakers; other exceptions pass through unchanged and the call counts as a
   * success. Repeating the step adds types. {@link #ignoreExceptions} wins over this list, and
   * {@link #recordExceptionsIf} over both.
   *
   * @param types the exception types that count
   * @return the new guard
   * @throws NullPointerException if a type is null
   */
  @SafeVarargs
  public final Guard recordExceptions(Class<? extends Throwable>... types) {
    return withLast(last().withTracing(last().tracing().withRecorded("recordExceptions", types)));
  }

  /**
   * Never counts exceptions of these types (or their subtypes) as business errors: they pass
   * through unchanged and the call counts as a success (a validation error says nothing about the
   * health of a dependency). Repeating the step adds types.
   *
   * <pre>{@code
   * Guard.of("payments").errorRatio(0.3).ignoreExceptions(IllegalArgumentException.class);
   * }</pre>
   *
   * @param types the exception types that never count
   * @return the new guard
   * @throws NullPointerException if a type is null
   */
  @SafeVarargs
  public final Guard ignoreExceptions(Class<? extends Throwable>... types) {
    return withLast(last().withTracing(last().tracing().withIgnored("ignoreExceptions", types)));
  }

  /**
   * Counts an exception as a business error only when {@code isError} says so; it then alone
   * decides, whatever {@link #recordExceptions} and {@link #ignoreExceptions} list. A predicate
   * that throws counts the exception. A {@link RefusedException} never counts.
   *
   * @param isError tells which exceptions are business errors; fast and side-effect free
   * @return the new guard
   * @throws IllegalStateException if a predicate is already set
   */
  public Guard recordExceptionsIf(Predicate<? super Throwable> isError) {
    Objects.requireNonNull(isError, "isError");
    return withLast(last().withTracing(last().tracing().withPredicate(isError)));
  }

  /**
   * Adds a hot-parameter rule: at most {@code count} calls per second for each value of the
   * argument at {@code argumentIndex}, each value with its own token bucket (refilled by {@code
   * count} once a full period has passed). Shape it with {@link #burst}, {@link #period}, {@link
   * #except}, {@link #pacing} and {@link #maxValues}.
   *
   * <pre>{@code
   * Function<String, Cart> load = Guard.of("loadCart")
   *     .perValue(0, 20).burst(10).except("vip-7", 500)
   *     .decorateFunction(userId -> carts.load(userId));
   * }</pre>
   *
   * <p>A negative index counts from the end of each call's arguments ({@code -1} is the last); a
   * call without that argument, or with null there, is not limited by the rule; a collection or
   * array argument is limited per element. The arguments are those of {@link #decorateFunction}
   * (its input is argument 0), {@link #decorateKeyedFunction} (the key),
   * {@link #decorateBiFunction} (arguments 0 and 1) and {@link #callWithKey} (the key); other
   * shapes have none. A refusal throws {@link dev.guard.api.PerValueRefusedException}.
   *
   * @param argumentIndex the argument holding the value; negative counts from the end
   * @param count calls per second per value; {@code >= 0}
   * @return the new guard
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public Guard perValue(int argumentIndex, int count) {
    return withLast(last().withRule(PerValueRule.qps(last().resource(), argumentIndex, count)));
  }

  /**
   * Adds a hot-parameter rule limiting the calls running at once to {@code limit} for each value
   * of the argument at {@code argumentIndex} (see {@link #perValue} for which argument).
   *
   * <pre>{@code
   * Function<Tenant, Report> export = Guard.of("export")
   *     .perValueConcurrency(0, 2)
   *     .decorateKeyedFunction(Tenant::id, tenant -> reports.export(tenant));
   * }</pre>
   *
   * @param argumentIndex the argument holding the value; negative counts from the end
   * @param limit calls running at once per value; {@code >= 0}
   * @return the new guard
   * @throws IllegalArgumentException if {@code limit} is negative
   */
  public Guard perValueConcurrency(int argumentIndex, int limit) {
    return withLast(last().withRule(
        PerValueRule.concurrency(last().resource(), argumentIndex, limit)));
  }

  /**
   * Lets each value of the most recent {@link #perValue} rule bank {@code tokens} calls on top of
   * its count: a value seen for the first time, or idle long enough, may make {@code count +
   * tokens} calls at once.
   *
   * @param tokens extra calls per value; {@code >= 0}
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a {@code perValue} rule
   * @throws IllegalArgumentException if {@code tokens} is negative or too large, or the rule paces
   */
  public Guard burst(int tokens) {
    return shapeLastPerValue("burst", FlowMetric.QPS, rule -> rule.withBurst(tokens));
  }

  /**
   * Sets the token period of the most recent {@link #perValue} rule: {@code count} calls per
   * {@code period} instead of per second ({@code perValue(0, 100).period(Duration.ofMinutes(1))}).
   *
   * @param period whole milliseconds, from 1 ms to one day
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a {@code perValue} rule
   * @throws IllegalArgumentException if {@code period} is out of range
   */
  public Guard period(Duration period) {
    Objects.requireNonNull(period, "period");
    return shapeLastPerValue("period", FlowMetric.QPS, rule -> rule.withPeriod(period));
  }

  /**
   * Gives one value of the most recent hot-parameter rule its own threshold. Values match with
   * {@code equals}, so {@code value} must have the argument's runtime type: {@code except(7, 50)}
   * never matches a {@code Long} argument {@code 7L}; declare {@link #valueType} to have such a
   * mismatch rejected.
   *
   * @param value the value
   * @param threshold its own threshold; {@code >= 0} (0 refuses it)
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a hot-parameter rule
   * @throws IllegalArgumentException if {@code threshold} is negative, or {@code value} is not of
   *     the declared {@link #valueType}
   */
  public Guard except(Object value, int threshold) {
    Objects.requireNonNull(value, "value");
    return withLast(last().mapLastRule("except", PerValueRule.class,
        rule -> rule.withException(value, threshold)));
  }

  /**
   * Declares the runtime type of the values of the most recent hot-parameter rule, so that an
   * {@link #except} value of another type, which could never match, is rejected.
   *
   * @param type the values' type
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a hot-parameter rule
   * @throws IllegalArgumentException if an exception value is not of that type
   */
  public Guard valueType(Class<?> type) {
    Objects.requireNonNull(type, "type");
    return withLast(last().mapLastRule("valueType", PerValueRule.class,
        rule -> rule.withValueType(type)));
  }

  /**
   * Bounds how many values the engine remembers for the most recent hot-parameter rule (default
   * 4000 per started second of the period, at most 200,000). When a new value does not fit, the
   * values used least recently are forgotten and start over as if never seen; the engine counts
   * them ({@code GuardEngine.overflows(Cap.PARAM_VALUES)}).
   *
   * @param max the bound; {@code >= 2}
   * @return the new guard
   * @throws IllegalStateException if the most recent rule is not a hot-parameter rule
   * @throws IllegalArgumentException if {@code max} is below 2
   */
  public Guard maxValues(int max) {
    return withLast(last().mapLastRule("maxValues", PerValueRule.class,
        rule -> rule.withMaxValues(max)));
  }

  /**
   * Binds the guard to an engine.
   *
   * @param target the engine
   * @return the new guard
   */
  public Guard on(GuardEngine target) {
    return new Guard(parts, Objects.requireNonNull(target, "engine"));
  }

  /**
   * Composes this guard with another for a different resource: calls enter this guard's resources
   * first, then {@code next}'s, and exit in reverse order; a refusal by {@code next} exits this
   * guard's entries before it propagates. Compose finished guards: rule and call-setting steps on
   * the composed guard throw {@link IllegalStateException}, since they could not say which
   * resource they configure.
   *
   * @param next the guard entered second
   * @return the composed guard
   * @throws IllegalArgumentException if both guards are bound to different engines, or if they
   *     share a resource (each resource's rules are declared by one part)
   */
  public Guard andThen(Guard next) {
    Objects.requireNonNull(next, "next");
    if (engine != null && next.engine != null && engine != next.engine) {
      throw new IllegalArgumentException("next must be bound to the same engine, was " + next);
    }
    for (GuardPart part : next.parts) {
      for (GuardPart mine : parts) {
        if (mine.resource().equals(part.resource())) {
          throw new IllegalArgumentException(
              "next must guard other resources, but both guard '" + part.resource() + "'");
        }
      }
    }
    List<GuardPart> combined = new ArrayList<>(parts);
    combined.addAll(next.parts);
    return new Guard(combined, engine != null ? engine : next.engine);
  }

  /**
   * Returns the flow rules this guard declares, for all its resources, in order.
   *
   * @return the rules
   */
  public List<FlowRule> flowRules() {
    List<FlowRule> rules = new ArrayList<>();
    for (GuardPart part : parts) {
      rules.addAll(part.rulesOf(FlowRule.class));
    }
    return List.copyOf(rules);
  }

  /**
   * Returns every rule this guard declares, of every kind, for all its resources, in order.
   *
   * @return the rules
   */
  public List<Rule> rules() {
    List<Rule> rules = new ArrayList<>();
    for (GuardPart part : parts) {
      rules.addAll(part.rules());
    }
    return List.copyOf(rules);
  }

  /**
   * Wraps a supplier: each {@code get()} runs it under this guard.
   *
   * @param supplier the protected code
   * @param <T> the result type
   * @return the guarded supplier; throws {@link RefusedException} when refused
   */
  public <T extends @Nullable Object> Supplier<T> decorate(Supplier<T> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    Function<Supplier<T>, T> guarded = bound().wrap(Supplier::get, null, null);
    return () -> guarded.apply(supplier);
  }

  /**
   * Wraps a function: each {@code apply(x)} runs it under this guard, with {@code x} as the call's
   * argument (for hot-parameter rules). A call allocates nothing.
   *
   * @param function the protected code
   * @param <T> the argument type
   * @param <R> the result type
   * @return the guarded function; throws {@link RefusedException} when refused
   */
  public <T extends @Nullable Object, R extends @Nullable Object> Function<T, R> decorateFunction(
      Function<T, R> function) {
    Objects.requireNonNull(function, "function");
    return bound().wrap(function, Binding.WHOLE_INPUT, null);
  }

  /**
   * Wraps a function whose hot-parameter value is a key computed from its argument: each {@code
   * apply(x)} runs {@code function} under this guard with {@code key.apply(x)} as the call's
   * argument 0, so rules limit per key (a field of the argument) for both rates and concurrency.
   * The key is computed once per call, before entering; a call allocates nothing unless the key
   * function does (a primitive key is boxed).
   *
   * <pre>{@code
   * Function<Order, Receipt> place = Guard.of("placeOrder")
   *     .perValue(0, 5)
   *     .decorateKeyedFunction(Order::customerId, orders::place);
   * }</pre>
   *
   * @param key computes the value hot-parameter rules limit on
   * @param function the protected code
   * @param <T> the argument type
   * @param <R> the result type
   * @return the guarded function; throws {@link RefusedException} when refused
   */
  public <T extends @Nullable Object, R extends @Nullable Object> Function<T, R>
      decorateKeyedFunction(Function<? super T, ?> key, Function<T, R> function) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(function, "function");
    return bound().wrap(function, key, null);
  }

  /**
   * Wraps a two-argument function: each {@code apply(x, y)} runs it under this guard, with
   * {@code x} and {@code y} as the call's arguments 0 and 1 (for hot-parameter rules). A call
   * allocates nothing.
   *
   * <pre>{@code
   * BiFunction<String, String, Page> search = Guard.of("search")
   *     .perValue(1, 5)                          // 5 searches per second per tenant
   *     .decorateBiFunction((query, tenant) -> index.search(query, tenant));
   * }</pre>
   *
   * @param function the protected code
   * @param <T> the first argument's type
   * @param <U> the second argument's type
   * @param <R> the result type
   * @return the guarded function; throws {@link RefusedException} when refused
   */
  public <T extends @Nullable Object, U extends @Nullable Object, R extends @Nullable Object>
      BiFunction<T, U, R> decorateBiFunction(BiFunction<T, U, R> function) {
    Objects.requireNonNull(function, "function");
    return bound().wrapPair(function);
  }

  /**
   * Wraps a callable: each {@code call()} runs it under this guard; its checked exceptions pass
   * through unchanged.
   *
   * @param callable the protected code
   * @param <T> the result type
   * @return the guarded callable; throws {@link RefusedException} when refused
   */
  public <T extends @Nullable Object> Callable<T> decorateCallable(Callable<T> callable) {
    Objects.requireNonNull(callable, "callable");
    CheckedFunction<Callable<T>, T> guarded = bound().wrapChecked(Callable::call);
    return () -> guarded.apply(callable);
  }

  /**
   * Wraps a runnable: each {@code run()} runs it under this guard.
   *
   * @param runnable the protected code
   * @return the guarded runnable; throws {@link RefusedException} when refused
   */
  public Runnable decorateRunnable(Runnable runnable) {
    Objects.requireNonNull(runnable, "runnable");
    Function<Runnable, Boolean> guarded = bound().wrap(Guard::runOnce, null, null);
    return () -> {
      Boolean ignored = guarded.apply(runnable);
    };
  }

  /**
   * Wraps a supplier of an asynchronous result: each {@code get()} enters this guard, starts the
   * supplier's stage, and exits when the stage completes, on whichever thread completes it, so
   * the statistics see the asynchronous call's full duration and outcome. The calling thread is
   * free at once: the entry is detached from it.
   *
   * <pre>{@code
   * Supplier<CompletionStage<Quote>> quote = Guard.of("pricing").concurrency(20)
   *     .decorateCompletionStage(() -> pricingClient.quoteAsync(item));
   * }</pre>
   *
   * <p>A refused call returns a stage failed with the {@link RefusedException} and does not call
   * the supplier; an exception thrown by the supplier itself returns a stage failed with it. A
   * stage that fails counts as a business error. The returned stage completes after the exit is
   * recorded, with the supplier's stage's value or failure.
   *
   * @param supplier starts the protected asynchronous work
   * @param <T> the result type
   * @return the guarded supplier
   */
  public <T extends @Nullable Object> Supplier<CompletionStage<T>> decorateCompletionStage(
      Supplier<? extends CompletionStage<T>> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    Binding bound = bound();
    return () -> bound.executeAsync(supplier);
  }

  /**
   * Wraps a supplier with a fallback for refused calls: the fallback receives the {@link
   * RefusedException} and its result is returned instead. Business exceptions still propagate.
   *
   * @param supplier the protected code
   * @param onRefused computes the result of a refused call
   * @param <T> the result type
   * @return the guarded supplier
   */
  public <T extends @Nullable Object> Supplier<T> decorateOrElse(
      Supplier<T> supplier, Function<? super RefusedException, ? extends T> onRefused) {
    Objects.requireNonNull(supplier, "supplier");
    Objects.requireNonNull(onRefused, "onRefused");
    Function<Supplier<T>, T> guarded = bound().wrap(Supplier::get, null, onRefused);
    return () -> guarded.apply(supplier);
  }

  /**
   * Wraps a supplier with a recovery: a refused call, and a call whose code throws an exception
   * that counts as a business error, return {@code recovery}'s result instead. The recovery
   * receives the {@link RefusedException} (a {@link dev.guard.api.CircuitBreakerRefusedException} while
   * a breaker is open) or the code's exception; exceptions that do not count as errors ({@link
   * #ignoreExceptions}) and {@link Error}s propagate unchanged. A call allocates nothing.
   *
   * <pre>{@code
   * Supplier<Stock> stock = Guard.of("inventory").errorRatio(0.5).openFor(Duration.ofSeconds(5))
   *     .decorateOrRecover(() -> inventory.stock(item), failure -> cache.lastKnownStock(item));
   * }</pre>
   *
   * @param supplier the protected code
   * @param recovery computes the result of a refused or failed call
   * @param <T> the result type
   * @return the guarded supplier
   */
  public <T extends @Nullable Object> Supplier<T> decorateOrRecover(
      Supplier<T> supplier, Function<? super RuntimeException, ? extends T> recovery) {
    Objects.requireNonNull(supplier, "supplier");
    Objects.requireNonNull(recovery, "recovery");
    Binding bound = bound();
    Function<Supplier<T>, T> guarded = bound.wrap(Supplier::get, null, recovery);
    return () -> {
      try {
        return guarded.apply(supplier);
      } catch (RuntimeException failure) {
        if (bound.recovers(failure)) {
          return recovery.apply(failure);
        }
        throw failure;
      }
    };
  }

  /**
   * Runs a supplier now under this guard, recovering from a refusal or a business error like
   * {@link #decorateOrRecover}.
   *
   * @param supplier the protected code
   * @param recovery computes the result of a refused or failed call from its exception
   * @param <T> the result type
   * @return the supplier's or the recovery's result
   */
  public <T extends @Nullable Object> T callOrRecover(
      Supplier<T> supplier, Function<? super RuntimeException, ? extends T> recovery) {
    Objects.requireNonNull(supplier, "supplier");
    Objects.requireNonNull(recovery, "recovery");
    Binding bound = bound();
    try {
      return bound.run(null, supplier, Supplier<T>::get, recovery);
    } catch (RuntimeException failure) {
      if (bound.recovers(failure)) {
        return recovery.apply(failure);
      }
      throw failure;
    }
  }

  /**
   * Runs a supplier now under this guard.
   *
   * @param supplier the protected code
   * @param <T> the result type
   * @return its result
   * @throws RefusedException if the call was refused
   */
  public <T extends @Nullable Object> T call(Supplier<T> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return bound().run(null, supplier, Supplier<T>::get, null);
  }

  /**
   * Runs a supplier now under this guard with {@code key} as the call's argument 0, for
   * hot-parameter rules: the keyed form of {@link #call}.
   *
   * <pre>{@code
   * Cart cart = perUser.callWithKey(userId, () -> carts.load(userId));
   * }</pre>
   *
   * <p>A call allocates nothing, except on a guard composed with {@link #andThen}, which nests its
   * parts for each call.
   *
   * @param key the value hot-parameter rules limit on; null for none
   * @param supplier the protected code
   * @param <T> the result type
   * @return its result
   * @throws RefusedException if the call was refused
   */
  public <T extends @Nullable Object> T callWithKey(@Nullable Object key, Supplier<T> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return bound().run(key, supplier, Supplier<T>::get, null);
  }

  /**
   * Runs a runnable now under this guard.
   *
   * @param runnable the protected code
   * @throws RefusedException if the call was refused
   */
  public void run(Runnable runnable) {
    Objects.requireNonNull(runnable, "runnable");
    bound().run(null, runnable, Guard::runOnce, null);
  }

  /**
   * Runs a supplier now under this guard, falling back on refusal.
   *
   * @param supplier the protected code
   * @param onRefused computes the result of a refused call from its {@link RefusedException}
   * @param <T> the result type
   * @return the supplier's or the fallback's result
   */
  public <T extends @Nullable Object> T callOrElse(
      Supplier<T> supplier, Function<? super RefusedException, ? extends T> onRefused) {
    Objects.requireNonNull(supplier, "supplier");
    Objects.requireNonNull(onRefused, "onRefused");
    return bound().run(null, supplier, Supplier<T>::get, onRefused);
  }

  /**
   * Runs a supplier now and captures the outcome: a success, the {@link RefusedException} of a
   * refusal, or the code's own exception.
   *
   * @param supplier the protected code
   * @param <T> the result type
   * @return the outcome
   */
  public <T extends @Nullable Object> Try<T> tryCall(Supplier<T> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return Try.of(() -> call(supplier));
  }

  /**
   * Runs a supplier now: a refusal becomes a left value, a result a right value; the code's own
   * exceptions propagate unchanged.
   *
   * @param supplier the protected code
   * @param <T> the result type
   * @return the refusal or the result
   */
  public <T extends @Nullable Object> Either<RefusedException, T> tryEither(Supplier<T> supplier) {
    try {
      return Either.right(call(supplier));
    } catch (RefusedException refused) {
      return Either.left(refused);
    }
  }

  /** Runs a runnable as a body; a runnable has no result, and nothing reads this one. */
  private static Boolean runOnce(Runnable runnable) {
    runnable.run();
    return Boolean.TRUE;
  }

  private Binding bound() {
    Binding current = binding;
    if (current == null) {
      current = Binding.bind(engine != null ? engine : GuardEngine.shared(), parts);
      binding = current;
    }
    return current;
  }

  /** The part rule steps configure: a composed guard has none (compose finished guards). */
  private GuardPart last() {
    if (parts.size() > 1) {
      throw new IllegalStateException("rule steps configure one resource, but this guard composes "
          + parts.size() + " (" + resourceNames() + "): finish each guard, then compose with andThen");
    }
    return parts.get(0);
  }

  private String resourceNames() {
    List<String> names = new ArrayList<>();
    for (GuardPart part : parts) {
      names.add(part.resource());
    }
    return String.join(", ", names);
  }

  private Guard withLast(GuardPart part) {
    return new Guard(List.of(part), engine);
  }

  private Guard withAuthority(String step, OriginRule rule) {
    GuardPart part = last();
    List<OriginRule> existing = part.rulesOf(OriginRule.class);
    if (!existing.isEmpty()) {
      throw new IllegalStateException(step + ": '" + part.resource() + "' already has "
          + existing.get(0) + ", and a resource has at most one origin list");
    }
    return withLast(part.withRule(rule));
  }

  private Guard shapeLastQps(String step, UnaryOperator<FlowRule> change) {
    return withLast(last().mapLastRule(step, FlowRule.class, rule -> {
      if (rule.metric() != FlowMetric.QPS) {
        throw new IllegalStateException(
            step + " shapes a qps(..) rule, but the most recent rule of '" + rule.resource()
                + "' is concurrency(" + rule.threshold() + ")");
      }
      return change.apply(rule);
    }));
  }

  private Guard clusterLast(String step, Function<FlowRule, ClusterMode> mode) {
    return withLast(last().mapLastRule(step, FlowRule.class,
        rule -> rule.withCluster(mode.apply(rule))));
  }

  private Guard shapeLastPerValue(
      String step, FlowMetric grade, UnaryOperator<PerValueRule> change) {
    return withLast(last().mapLastRule(step, PerValueRule.class, rule -> {
      if (rule.metric() != grade) {
        throw new IllegalStateException(
            step + " shapes a perValue(..) rule, but the most recent rule of '" + rule.resource()
                + "' is perValueConcurrency(" + rule.argumentIndex() + ", " + rule.threshold() + ")");
      }
      return change.apply(rule);
    }));
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof Guard
        && ((Guard) other).parts.equals(parts)
        && ((Guard) other).engine == engine;
  }

  @Override
  public int hashCode() {
    return parts.hashCode();
  }

  @Override
  public String toString() {
    return "Guard" + parts;
  }
}
