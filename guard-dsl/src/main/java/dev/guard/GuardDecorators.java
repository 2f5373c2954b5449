package dev.guard;

import dev.guard.api.RefusedException;
import dev.guard.engine.GuardedResource.CheckedFunction;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The decorators of a {@link Guard}: each wraps a function of one shape so that every call of the
 * result runs it under the guard. The binding to the engine is made once per decorator, so the
 * wrapped functions allocate nothing per call (except where a method says otherwise). Public
 * through {@link Guard}, which is the only subclass.
 */
abstract sealed class GuardDecorators extends GuardCalls permits Guard {

  GuardDecorators() {}

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
   * argument (for per-value rules). A call allocates nothing.
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
   * Wraps a function whose limited value is a key computed from its argument: each {@code
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
   * @param key computes the value per-value rules limit on
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
   * {@code x} and {@code y} as the call's arguments 0 and 1 (for per-value rules). A call
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
    Function<Runnable, Boolean> guarded = bound().wrap(GuardCalls::runOnce, null, null);
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
   * <p>A caller that cancels the returned stage (or completes it otherwise, as {@code orTimeout}
   * does) before the supplier's stage completes ends the call at that moment, as a call without
   * error, and its place is free at once; the supplier's stage is left alone and its later
   * outcome changes nothing.
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
   * and hands it the admitted {@link Guard.Call}, on which the code may record a failure without
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
   * <p>Exceptions the body throws pass through unchanged and count as usual; {@link Guard#failsWhen}
   * judges the result as usual. A refused call throws its {@link RefusedException} and the body
   * does not run. Each call allocates a few small objects.
   *
   * @param body the protected code; receives the call, valid until the body returns
   * @param <T> the result type
   * @return the guarded supplier; throws {@link RefusedException} when refused
   */
  public <T extends @Nullable Object> Supplier<T> decorateWithCall(
      Function<? super Guard.Call, ? extends T> body) {
    Objects.requireNonNull(body, "body");
    Binding bound = bound();
    return () -> bound.runWithCall(body);
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
   * receives the {@link RefusedException} (a {@link dev.guard.api.RefusedException.Breaker} while
   * a breaker is open) or the code's exception; exceptions that do not count as errors ({@link
   * Guard#ignoreExceptions}) and {@link Error}s propagate unchanged. A call allocates nothing.
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

}
