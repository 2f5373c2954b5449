package dev.guard;

import dev.guard.api.RefusedException;
import dev.guard.api.internal.Checks;
import dev.guard.api.internal.RuleLimits;
import dev.guard.api.EntryType;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource.CheckedFunction;
import dev.guard.internal.DetachedCalls;
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
 * <p>Every method returns a new guard; a partial guard can serve as a template for variants. Rule
 * steps add a rule each and return a stage, a guard that also offers the steps which shape that
 * rule and only those: {@link #qps} a {@link QpsGuard} ({@code warmUp}, {@code pacing}, {@code
 * cluster}, {@code quota}, {@code fromOrigin}, {@code relatedTo}, {@code fromEntrance}, …;
 * after {@code warmUp} or {@code pacing} a {@link ShapedQpsGuard}, after {@code quota} a {@link
 * QuotaGuard}), {@link #concurrency} a {@link ConcurrencyGuard}, {@link #perValue} a {@link
 * PerValueGuard} (after {@code pacing} a {@link PacedPerValueGuard}), {@link
 * #perValueConcurrency} a {@link PerValueConcurrencyGuard}, {@link #adaptiveConcurrency} an
 * {@link AdaptiveConcurrencyGuard}, and {@link #slowCallRatio}, {@link
 * #errorRatio} and {@link #errorCount} a {@link CircuitBreakerGuard}. A shaping step written
 * anywhere else does not compile. {@link #allowOrigins} and {@link #denyOrigins} add a rule
 * that needs no shaping. Two guards are equal when they declare the same, whatever their stage.
 *
 * <p>The rules are declared on the engine the first time the guard is used there: an identical
 * declaration is a no-op, a different one replaces the resource's rules (the engine's listeners
 * hear of it). A guard without rules leaves the resource's rules as they are, so it can enter
 * resources configured through {@link GuardEngine#apply}. An unbound guard uses {@link
 * GuardEngine#shared()}.
 *
 * <p>A refused call throws a {@link RefusedException} subclass and the code does not run.
 * Exceptions of the code pass through unchanged (the same instance) and are counted as business
 * errors, unless {@link #ignoreExceptions}, {@link #recordExceptions} or {@link
 * #recordExceptionsIf} say otherwise; {@link #failsWhen} counts results as failures too, and
 * {@link #decorateWithCall} lets the code record a failure itself. {@link #decorateOrRecover}
 * turns refusals and business errors into a fallback value. Calls enter as {@link EntryType#OUT}
 * unless {@link #entryType} says otherwise; only {@link EntryType#IN} calls count in the engine's
 * inbound statistics and system protection ({@link GuardEngine#apply}). Guards are
 * thread-safe.
 *
 * <p>This class holds the steps; the decorators and run-now forms it offers are written in its
 * package-private superclasses {@code GuardDecorators} and {@code GuardCalls}, the shaping steps
 * in the stages, the declarations in {@code GuardPart} and the calls in {@code Binding}.
 */
public sealed class Guard extends GuardDecorators
    permits QpsGuard, ShapedQpsGuard, QuotaGuard, ConcurrencyGuard, PerValueGuard,
        PacedPerValueGuard, PerValueConcurrencyGuard, CircuitBreakerGuard,
        AdaptiveConcurrencyGuard {

  private final List<GuardPart> parts;
  private final @Nullable GuardEngine engine;
  private volatile @Nullable Binding binding;

  Guard(List<GuardPart> parts, @Nullable GuardEngine engine) {
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
   * Adds a rule admitting at most {@code qps} calls per second, refusing the others at once
   * unless shaped by {@link QpsGuard#warmUp} or {@link QpsGuard#pacing}.
   *
   * @param qps calls per second; finite and {@code >= 0} (0 refuses every call)
   * @return the new guard, which also offers the rule's shaping steps
   * @throws IllegalArgumentException if {@code qps} is negative, NaN or infinite
   */
  public QpsGuard qps(double qps) {
    Checks.finiteNonNegative("qps", qps);
    return new QpsGuard(withRule(FlowRule.qps(part().resource(), qps)), engine);
  }

  /**
   * Adds a rule admitting at most {@code qps} calls per second; the same as {@link #qps(double)},
   * for whole numbers ({@code qps(100)} from Kotlin, where an {@code Int} is not a {@code Double}).
   *
   * @param qps calls per second; {@code >= 0} (0 refuses every call)
   * @return the new guard, which also offers the rule's shaping steps
   * @throws IllegalArgumentException if {@code qps} is negative
   */
  public QpsGuard qps(int qps) {
    return qps((double) Checks.nonNegative("qps", qps));
  }

  /**
   * Adds a rule admitting at most {@code limit} calls running at once.
   *
   * @param limit concurrent calls; {@code >= 0}
   * @return the new guard, which also offers the rule's scoping steps
   * @throws IllegalArgumentException if {@code limit} is negative
   */
  public ConcurrencyGuard concurrency(int limit) {
    Checks.nonNegative("concurrency", limit);
    return new ConcurrencyGuard(withRule(FlowRule.concurrency(part().resource(), limit)), engine);
  }

  /**
   * Adds an adaptive concurrency limit: at most {@code limit} calls run at once, and the engine
   * finds the limit from the calls' response times (against the best it has seen) and failures,
   * recomputing it every window. A refused call gets a {@link
   * dev.guard.api.RefusedException.AdaptiveConcurrency} carrying the limit in force. A resource has
   * at most one adaptive limit.
   *
   * <pre>{@code
   * Supplier<Stock> stock = Guard.of("inventory")
   *     .adaptiveConcurrency().limits(20, 4, 400)
   *     .on(engine)
   *     .decorate(() -> inventory.stock(sku));
   * }</pre>
   *
   * <p>Defaults: the gradient algorithm, limits 20 (initial), 1 (minimum) and 1000 (maximum), a new
   * limit every 100 ms; {@link AdaptiveConcurrencyGuard} offers the other settings.
   *
   * @return the new guard, which also offers the limit's settings
   * @throws IllegalStateException if this resource already has an adaptive limit
   */
  public AdaptiveConcurrencyGuard adaptiveConcurrency() {
    GuardPart part = part();
    if (!part.rulesOf(AdaptiveConcurrencyRule.class).isEmpty()) {
      throw new IllegalStateException("adaptiveConcurrency: '" + part.resource()
          + "' already has an adaptive limit, and a resource has at most one");
    }
    return new AdaptiveConcurrencyGuard(
        withRule(AdaptiveConcurrencyRule.of(part.resource())), engine);
  }

  /**
   * Adds a per-value rule: at most {@code count} calls per second for each value of the
   * argument at {@code argumentIndex}, each value with its own token bucket (refilled by {@code
   * count} once a full period has passed). Shape it with the steps of {@link PerValueGuard}.
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
   * shapes have none. A refusal throws {@link dev.guard.api.RefusedException.PerValue}.
   *
   * @param argumentIndex the argument holding the value; negative counts from the end
   * @param count calls per second per value; {@code >= 0}
   * @return the new guard, which also offers the rule's shaping steps
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public PerValueGuard perValue(int argumentIndex, int count) {
    return new PerValueGuard(
        withRule(PerValueRule.qps(part().resource(), argumentIndex, count)), engine);
  }

  /**
   * Adds a per-value rule limiting the calls running at once to {@code limit} for each value
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
   * @return the new guard, which also offers the rule's steps
   * @throws IllegalArgumentException if {@code limit} is negative
   */
  public PerValueConcurrencyGuard perValueConcurrency(int argumentIndex, int limit) {
    return new PerValueConcurrencyGuard(
        withRule(PerValueRule.concurrency(part().resource(), argumentIndex, limit)), engine);
  }

  /**
   * Adds a circuit breaker that opens when more than {@code ratio} of the calls in its window
   * are slower than {@code slowerThan}: stop calling the resource while it is slow, then probe it
   * back to health. Each breaker step adds one breaker; a resource may have several. By default
   * the window is the last second and needs at least 5 calls, and the breaker stays open 10 s;
   * {@link CircuitBreakerGuard} offers the other settings.
   *
   * <pre>{@code
   * Guard.of("inventory")
   *     .slowCallRatio(0.5, Duration.ofMillis(300))
   *         .minCalls(10).window(Duration.ofSeconds(10)).openFor(Duration.ofSeconds(5));
   * }</pre>
   *
   * <p>An open breaker refuses calls with a {@link dev.guard.api.RefusedException.Breaker}, whose
   * {@code retryAfter()} tells when the next probe is allowed.
   *
   * @param ratio the share of slow calls, in {@code [0, 1]}; 1.0 opens when every call is slow
   * @param slowerThan a call whose response time, in whole milliseconds, is greater than this is
   *     slow; not negative
   * @return the new guard, which also offers the breaker's settings
   * @throws IllegalArgumentException if a value is invalid
   */
  public CircuitBreakerGuard slowCallRatio(double ratio, Duration slowerThan) {
    Checks.notNegative("slowerThan", slowerThan);
    return breaker(CircuitBreakerRule.slowCallRatio(
        part().resource(), slowerThan, ratio("slowCallRatio", ratio)));
  }

  /**
   * Adds a circuit breaker that opens when more than {@code ratio} of the calls in its window
   * failed (see {@link #slowCallRatio} for the defaults, and {@link #failsWhen} and {@link
   * #decorateWithCall} for failures that are not exceptions).
   *
   * <pre>{@code
   * Guard.of("payments").errorRatio(0.3).openFor(Duration.ofSeconds(10));
   * }</pre>
   *
   * @param ratio the share of failed calls, in {@code [0, 1]}; 1.0 opens when every call failed
   * @return the new guard, which also offers the breaker's settings
   * @throws IllegalArgumentException if {@code ratio} is not in {@code [0, 1]}
   */
  public CircuitBreakerGuard errorRatio(double ratio) {
    return breaker(CircuitBreakerRule.errorRatio(part().resource(), ratio("errorRatio", ratio)));
  }

  /**
   * Adds a circuit breaker that opens when more than {@code count} calls failed in its window
   * (see {@link #slowCallRatio} for the defaults).
   *
   * @param count the failed calls tolerated; {@code >= 0}
   * @return the new guard, which also offers the breaker's settings
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public CircuitBreakerGuard errorCount(int count) {
    Checks.nonNegative("errorCount", count);
    return breaker(CircuitBreakerRule.errorCount(part().resource(), count));
  }

  /**
   * Admits only calls from the listed caller origins (an allow list); calls without an origin pass
   * too. Other origins are refused with {@link dev.guard.api.RefusedException.Origin}, which
   * names the origin. The origin of a call comes from its context ({@code
   * engine.resource(name).context(entrance, origin).openContext()}) or from {@link #origin}.
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
    return withOriginList("allowOrigins", OriginRule.allow(part().resource(), origins));
  }

  /**
   * Refuses calls from the listed caller origins (a deny list) with {@link
   * dev.guard.api.RefusedException.Origin}; other calls pass.
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
    return withOriginList("denyOrigins", OriginRule.deny(part().resource(), origins));
  }

  /**
   * Bounds the time of an asynchronous call: when the stage of {@link #decorateCompletionStage}
   * (or a publisher of guard-reactor) has not completed {@code limit} after the call entered, the
   * returned stage completes exceptionally with a {@link java.util.concurrent.TimeoutException},
   * the call exits at that moment, and it counts as failed (whatever the guard's exception
   * filters say) with a response time of {@code limit}: circuit breakers count it failed and, when
   * {@code limit} is over their bound, slow, and an adaptive limit sees the failure. The work the
   * stage stood for is not cancelled; its late outcome is ignored.
   *
   * <pre>{@code
   * Supplier<CompletionStage<Quote>> quote = Guard.of("pricing")
   *     .adaptiveConcurrency()
   *     .slowCallRatio(0.5, Duration.ofMillis(200))
   *     .timeout(Duration.ofMillis(500))
   *     .decorateCompletionStage(() -> pricing.quoteAsync(item));
   * }</pre>
   *
   * <p>Synchronous calls cannot be bounded from outside: a running method can only be asked to
   * stop (an interrupt), which code is free to ignore, and a thread blocked in I/O often does.
   * So a guard with a timeout refuses to make synchronous decorators and run-now calls ({@code
   * IllegalStateException}) rather than promise a bound it cannot keep; give the client a
   * synchronous call uses its own timeout, and a late call is counted with its real response
   * time (docs/BEHAVIOUR.md, "Bounded call time"). Deadlines are kept by one daemon thread of
   * guard's, to about a millisecond, on the engine's time source; dependent stages of a timed-out
   * call run on the common fork-join pool.
   *
   * @param limit the longest a call may take; positive, at most a day
   * @return the new guard
   * @throws IllegalArgumentException if {@code limit} is not positive or longer than a day
   * @throws IllegalStateException if this guard composes several resources
   */
  public Guard timeout(Duration limit) {
    Checks.atMost("timeout", Checks.positive("timeout", limit), RuleLimits.MAX_DURATION);
    return withPart(part().withTimeout(limit));
  }

  /**
   * Sets the caller origin of calls made through this guard on a thread without a context (an
   * enclosing context, such as one opened with {@code GuardedResource.openContext()}, wins).
   *
   * @param callerOrigin the caller's identity; empty for unknown
   * @return the new guard
   * @throws IllegalStateException if this guard composes several resources
   */
  public Guard origin(String callerOrigin) {
    Objects.requireNonNull(callerOrigin, "origin");
    return withPart(part().withOrigin(callerOrigin));
  }

  /**
   * Sets the context (entrance) name of calls made through this guard on a thread without a
   * context (an enclosing context, such as one opened with {@code GuardedResource.openContext()},
   * wins).
   *
   * @param entrance the entrance name; not blank
   * @return the new guard
   * @throws IllegalArgumentException if {@code entrance} is blank
   * @throws IllegalStateException if this guard composes several resources
   */
  public Guard entrance(String entrance) {
    Checks.notBlank("entrance", entrance);
    return withPart(part().withEntrance(entrance));
  }

  /**
   * Sets the direction of calls (default {@link EntryType#OUT}); {@link EntryType#IN} calls are
   * counted in the engine's inbound statistics, and only they are checked by system protection
   * ({@link GuardEngine#apply}): mark the calls that serve requests arriving at this
   * service as {@code IN}.
   *
   * @param type the entry type
   * @return the new guard
   * @throws IllegalStateException if this guard composes several resources
   */
  public Guard entryType(EntryType type) {
    return withPart(part().withType(Objects.requireNonNull(type, "type")));
  }

  /**
   * Lets calls over a QPS limit borrow a pass from the next window bucket and wait for it (at most
   * the engine's occupy timeout) instead of being refused.
   *
   * @return the new guard
   * @throws IllegalStateException if this guard composes several resources
   */
  public Guard prioritized() {
    return withPart(part().asPrioritized());
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
    return withPart(part().withTracing(part().tracing().withRecorded("recordExceptions", types)));
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
    return withPart(part().withTracing(part().tracing().withIgnored("ignoreExceptions", types)));
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
    return withPart(part().withTracing(part().tracing().withPredicate(isError)));
  }

  /**
   * Judges the code's results: a result {@code isFailure} accepts counts as a failed call, for
   * statistics and circuit breakers ({@link #errorRatio}, {@link #errorCount}), exactly like a
   * thrown business error, and is still returned to the caller unchanged. Use it for code that
   * reports failure in its value (an HTTP response with status 503, an error result) instead of
   * throwing. The predicate sees every result of every decorator of this guard, null included,
   * and the value of an asynchronous call's stage; a predicate that throws counts the result as
   * failed (it cannot vouch for it), and the result is still returned.
   *
   * <pre>{@code
   * Supplier<Response> fetch = Guard.of("catalog")
   *     .errorRatio(0.5)
   *     .failsWhen(result -> result instanceof Response response && response.status() >= 500)
   *     .decorate(() -> http.get("/catalog"));
   * }</pre>
   *
   * <p>A guard with a result predicate enters its resources through entries rather than the
   * allocation-free path, so each call allocates a few small objects.
   *
   * @param isFailure tells which results are failures; fast and side-effect free
   * @return the new guard
   * @throws IllegalStateException if a result predicate is already set
   */
  public Guard failsWhen(Predicate<? super @Nullable Object> isFailure) {
    Objects.requireNonNull(isFailure, "isFailure");
    return withPart(part().withTracing(part().tracing().withFailsWhen(isFailure)));
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
   * Not part of the API: this guard's calls for guard's own adapters of asynchronous libraries
   * (guard-reactor), bound to its engine, its rules declared there as on any first use. The
   * result's type is in {@code dev.guard.internal}, which guard-dsl exports to those modules
   * only, so no other module can use it (hence the suppressed {@code exports} lint).
   *
   * @return the detached calls
   */
  @SuppressWarnings("exports")
  public final DetachedCalls detachedCalls() {
    return bound().detached();
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

  @Override
  final Binding bound() {
    Binding current = binding;
    if (current == null) {
      current = Binding.bind(engine != null ? engine : GuardEngine.shared(), parts);
      binding = current;
    }
    return current;
  }

  /** The part steps configure: a composed guard has none (compose finished guards). */
  /**
   * Returns a guard of this one's stage declaring {@code changed} as its only part: how a step
   * declared once, on a stage interface, returns the stage it was called on ({@code Stages}).
   * Every stage that implements a stage interface returns its own class.
   */
  Guard restage(GuardPart changed) {
    return new Guard(List.of(changed), engine);
  }

  final GuardPart part() {
    if (parts.size() > 1) {
      throw new IllegalStateException("rule steps configure one resource, but this guard composes "
          + parts.size() + " (" + resourceNames() + "): finish each guard, then compose with andThen");
    }
    return parts.get(0);
  }

  /** The engine this guard is bound to, or null for the shared one. */
  final @Nullable GuardEngine engine() {
    return engine;
  }

  private String resourceNames() {
    List<String> names = new ArrayList<>();
    for (GuardPart part : parts) {
      names.add(part.resource());
    }
    return String.join(", ", names);
  }

  private List<GuardPart> withRule(Rule rule) {
    return List.of(part().withRule(rule));
  }

  private Guard withPart(GuardPart part) {
    return new Guard(List.of(part), engine);
  }

  private CircuitBreakerGuard breaker(CircuitBreakerRule rule) {
    return new CircuitBreakerGuard(withRule(rule), engine);
  }

  private Guard withOriginList(String step, OriginRule rule) {
    GuardPart part = part();
    List<OriginRule> existing = part.rulesOf(OriginRule.class);
    if (!existing.isEmpty()) {
      throw new IllegalStateException(step + ": '" + part.resource() + "' already has "
          + existing.get(0) + ", and a resource has at most one origin list");
    }
    return withPart(part.withRule(rule));
  }

  private static double ratio(String field, double ratio) {
    if (!(ratio >= 0 && ratio <= 1)) {
      throw Checks.invalid(field, ratio, "must be a ratio in [0, 1]");
    }
    return ratio;
  }

  /**
   * Tells whether another guard declares the same: the same parts on the same engine, whatever
   * stage either is.
   */
  @Override
  public final boolean equals(@Nullable Object other) {
    return other instanceof Guard guard
        && guard.parts.equals(parts)
        && guard.engine == engine;
  }

  @Override
  public final int hashCode() {
    return parts.hashCode();
  }

  @Override
  public final String toString() {
    return "Guard" + parts;
  }

  /**
   * One admitted call of a guard's code, handed to the body of {@link Guard#decorateWithCall} so
   * that code which does not throw can still tell statistics and circuit breakers that it failed.
   *
   * <pre>{@code
   * Supplier<Quote> quote = Guard.of("pricing").errorRatio(0.5)
   *     .decorateWithCall(call -> {
   *       Quote answer = pricing.quoteOrNull(item);
   *       if (answer == null) {
   *         call.recordFailure(new IllegalStateException("no quote for " + item));
   *         return Quote.unavailable();
   *       }
   *       return answer;
   *     });
   * }</pre>
   *
   * <p>The call is valid while the body runs; recording on it afterwards does nothing. It is meant
   * for the thread running the body.
   */
  public sealed interface Call permits EnteredCall {

    /**
     * Counts this call as failed, on every resource of the guard, for statistics and for circuit
     * breakers ({@code errorRatio}, {@code errorCount}), exactly as if the body had thrown {@code
     * cause}; the body goes on, and what it returns is returned to the caller. The guard's exception
     * filters ({@code recordExceptions}, {@code ignoreExceptions}, {@code recordExceptionsIf}) do
     * not apply: recording is explicit. When several failures are recorded, the last counts (a call
     * fails once). A {@link dev.guard.api.RefusedException} is not a failure and is ignored.
     *
     * @param cause what went wrong
     * @throws NullPointerException if {@code cause} is null
     */
    void recordFailure(Throwable cause);
  }
}
