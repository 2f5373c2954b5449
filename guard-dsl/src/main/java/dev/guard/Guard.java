package dev.guard;

import dev.guard.api.BlockedException;
import dev.guard.api.Checks;
import dev.guard.api.EntryType;
import dev.guard.api.rule.AuthorityRule;
import dev.guard.api.rule.DegradeRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.ParamFlowRule;
import dev.guard.api.rule.Rule;
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
 * cluster}, {@code fromOrigin}, {@code relatedTo}, {@code fromEntrance}, …), {@link
 * #concurrency} a {@link ConcurrencyGuard}, {@link #perValue} a {@link PerValueGuard}, {@link
 * #perValueConcurrency} a {@link PerValueConcurrencyGuard}, and {@link #slowCallRatio}, {@link
 * #errorRatio} and {@link #errorCount} a {@link CircuitBreakerGuard}. A shaping step written
 * anywhere else does not compile. {@link #allowOrigins} and {@link #denyOrigins} add a rule
 * that needs no shaping. Two guards are equal when they declare the same, whatever their stage.
 *
 * <p>The rules are declared on the engine the first time the guard is used there: an identical
 * declaration is a no-op, a different one replaces the resource's rules (the engine's listeners
 * hear of it). A guard without rules leaves the resource's rules as they are, so it can enter
 * resources configured through {@link GuardEngine#loadRules}. An unbound guard uses {@link
 * GuardEngine#shared()}.
 *
 * <p>A refused call throws a {@link BlockedException} subclass and the code does not run.
 * Exceptions of the code pass through unchanged (the same instance) and are counted as business
 * errors, unless {@link #ignoreExceptions}, {@link #recordExceptions} or {@link
 * #recordExceptionsIf} say otherwise; {@link #failsWhen} counts results as failures too, and
 * {@link #decorateWithCall} lets the code record a failure itself. {@link #decorateOrRecover}
 * turns refusals and business errors into a fallback value. Calls enter as {@link EntryType#OUT}
 * unless {@link #entryType} says otherwise; only {@link EntryType#IN} calls count in the engine's
 * inbound statistics and system protection ({@link GuardEngine#loadSystemRules}). Guards are
 * thread-safe.
 *
 * <p>This class is longer than the project's usual files because it is the DSL's one entry point:
 * each step and decorator is a short method with its documentation; the stages hold the shaping
 * steps, {@code GuardPart} the declarations and {@code Binding} the calls.
 */
public sealed class Guard
    permits QpsGuard, ConcurrencyGuard, PerValueGuard, PerValueConcurrencyGuard,
        CircuitBreakerGuard {

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
   * Adds a hot-parameter rule: at most {@code count} calls per second for each value of the
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
   * shapes have none. A refusal throws {@link dev.guard.api.ParamFlowBlockedException}.
   *
   * @param argumentIndex the argument holding the value; negative counts from the end
   * @param count calls per second per value; {@code >= 0}
   * @return the new guard, which also offers the rule's shaping steps
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public PerValueGuard perValue(int argumentIndex, int count) {
    return new PerValueGuard(
        withRule(ParamFlowRule.qps(part().resource(), argumentIndex, count)), engine);
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
   * @return the new guard, which also offers the rule's steps
   * @throws IllegalArgumentException if {@code limit} is negative
   */
  public PerValueConcurrencyGuard perValueConcurrency(int argumentIndex, int limit) {
    return new PerValueConcurrencyGuard(
        withRule(ParamFlowRule.concurrency(part().resource(), argumentIndex, limit)), engine);
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
   * <p>An open breaker refuses calls with a {@link dev.guard.api.DegradeBlockedException}, whose
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
    return breaker(DegradeRule.slowCallRatio(
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
    return breaker(DegradeRule.errorRatio(part().resource(), ratio("errorRatio", ratio)));
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
    return breaker(DegradeRule.errorCount(part().resource(), count));
  }

  /**
   * Admits only calls from the listed caller origins (a white list); calls without an origin pass
   * too. Other origins are refused with {@link dev.guard.api.AuthorityBlockedException}, which
   * names the origin. The origin of a call comes from its context ({@code
   * GuardEngine.enterContext(name, origin)}) or from {@link #origin}.
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
    return withOriginList("allowOrigins", AuthorityRule.allow(part().resource(), origins));
  }

  /**
   * Refuses calls from the listed caller origins (a black list) with {@link
   * dev.guard.api.AuthorityBlockedException}; other calls pass.
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
    return withOriginList("denyOrigins", AuthorityRule.deny(part().resource(), origins));
  }

  /**
   * Sets the caller origin of calls made through this guard on a thread without a context (an
   * enclosing {@code GuardEngine.enterContext} wins).
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
   * context (an enclosing {@code GuardEngine.enterContext} wins).
   *
   * @param contextName the entrance name; not blank
   * @return the new guard
   * @throws IllegalArgumentException if {@code contextName} is blank
   * @throws IllegalStateException if this guard composes several resources
   */
  public Guard entrance(String contextName) {
    Checks.notBlank("entrance", contextName);
    return withPart(part().withEntrance(contextName));
  }

  /**
   * Sets the direction of calls (default {@link EntryType#OUT}); {@link EntryType#IN} calls are
   * counted in the engine's inbound statistics, and only they are checked by system protection
   * ({@link GuardEngine#loadSystemRules}): mark the calls that serve requests arriving at this
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
   * that throws counts the exception. A {@link BlockedException} never counts.
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
   * @return the guarded supplier; throws {@link BlockedException} when refused
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
   * @return the guarded function; throws {@link BlockedException} when refused
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
   * @return the guarded function; throws {@link BlockedException} when refused
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
   * @return the guarded function; throws {@link BlockedException} when refused
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
   * @return the guarded callable; throws {@link BlockedException} when refused
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
   * @return the guarded runnable; throws {@link BlockedException} when refused
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
   * <p>A refused call returns a stage failed with the {@link BlockedException} and does not call
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
   * Wraps code that judges its own outcome: each {@code get()} runs {@code body} under this guard
   * and hands it the admitted {@link Call}, on which the code may record a failure without
   * throwing. A body that catches its own exception or returns an error value is otherwise
   * invisible to circuit breakers.
   *
   * <pre>{@code
   * Supplier<Quote> quote = Guard.of("pricing").errorCount(3)
   *     .decorateWithCall(call -> {
   *       try {
   *         return pricing.quote(item);
   *       } catch (PricingTimeoutException e) {
   *         call.recordFailure(e);          // counts for the breaker
   *         return Quote.unavailable();     // and the caller still gets a value
   *       }
   *     });
   * }</pre>
   *
   * <p>Exceptions the body throws pass through unchanged and count as usual; {@link #failsWhen}
   * judges the result as usual. A refused call throws its {@link BlockedException} and the body
   * does not run. Each call allocates a few small objects.
   *
   * @param body the protected code; receives the call, valid until the body returns
   * @param <T> the result type
   * @return the guarded supplier; throws {@link BlockedException} when refused
   */
  public <T extends @Nullable Object> Supplier<T> decorateWithCall(
      Function<? super Call, ? extends T> body) {
    Objects.requireNonNull(body, "body");
    Binding bound = bound();
    return () -> bound.runWithCall(body);
  }

  /**
   * Wraps a supplier with a fallback for refused calls: the fallback receives the {@link
   * BlockedException} and its result is returned instead. Business exceptions still propagate.
   *
   * @param supplier the protected code
   * @param onBlocked computes the result of a refused call
   * @param <T> the result type
   * @return the guarded supplier
   */
  public <T extends @Nullable Object> Supplier<T> decorateOrElse(
      Supplier<T> supplier, Function<? super BlockedException, ? extends T> onBlocked) {
    Objects.requireNonNull(supplier, "supplier");
    Objects.requireNonNull(onBlocked, "onBlocked");
    Function<Supplier<T>, T> guarded = bound().wrap(Supplier::get, null, onBlocked);
    return () -> guarded.apply(supplier);
  }

  /**
   * Wraps a supplier with a recovery: a refused call, and a call whose code throws an exception
   * that counts as a business error, return {@code recovery}'s result instead. The recovery
   * receives the {@link BlockedException} (a {@link dev.guard.api.DegradeBlockedException} while
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
   * @throws BlockedException if the call was refused
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
   * @throws BlockedException if the call was refused
   */
  public <T extends @Nullable Object> T callWithKey(@Nullable Object key, Supplier<T> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return bound().run(key, supplier, Supplier<T>::get, null);
  }

  /**
   * Runs a runnable now under this guard.
   *
   * @param runnable the protected code
   * @throws BlockedException if the call was refused
   */
  public void run(Runnable runnable) {
    Objects.requireNonNull(runnable, "runnable");
    bound().run(null, runnable, Guard::runOnce, null);
  }

  /**
   * Runs a supplier now under this guard, falling back on refusal.
   *
   * @param supplier the protected code
   * @param onBlocked computes the result of a refused call from its {@link BlockedException}
   * @param <T> the result type
   * @return the supplier's or the fallback's result
   */
  public <T extends @Nullable Object> T callOrElse(
      Supplier<T> supplier, Function<? super BlockedException, ? extends T> onBlocked) {
    Objects.requireNonNull(supplier, "supplier");
    Objects.requireNonNull(onBlocked, "onBlocked");
    return bound().run(null, supplier, Supplier<T>::get, onBlocked);
  }

  /**
   * Runs a supplier now and captures the outcome: a success, the {@link BlockedException} of a
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
  public <T extends @Nullable Object> Either<BlockedException, T> tryEither(Supplier<T> supplier) {
    try {
      return Either.right(call(supplier));
    } catch (BlockedException refused) {
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

  /** The part steps configure: a composed guard has none (compose finished guards). */
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

  private CircuitBreakerGuard breaker(DegradeRule rule) {
    return new CircuitBreakerGuard(withRule(rule), engine);
  }

  private Guard withOriginList(String step, AuthorityRule rule) {
    GuardPart part = part();
    List<AuthorityRule> existing = part.rulesOf(AuthorityRule.class);
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
}
