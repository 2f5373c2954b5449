package dev.guard.reactor;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.internal.DetachedCalls;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Guards Reactor publishers with a {@link Guard}: every subscription of a guarded {@link Mono} or
 * {@link Flux} is one call of the guard's resources.
 *
 * <pre>{@code
 * GuardedPublishers pricing = GuardedPublishers.of(
 *     Guard.of("pricing").concurrency(20).errorRatio(0.5).on(engine));
 *
 * Mono<Quote> quote = pricingClient.quote(item).transform(pricing::mono);
 * Flux<Price> prices = pricingClient.prices(items).transform(pricing::flux);
 * }</pre>
 *
 * <p>The call is entered when a subscriber subscribes, never when the publisher is assembled: a
 * guarded publisher that nobody subscribes to takes nothing, and each subscription (a retry, a
 * repeat) is a call of its own. A {@code Mono}'s call ends with its value, its completion or its
 * error; a {@code Flux}'s call spans the whole subscription and ends with its completion or
 * error. Either ends when the subscriber cancels, exactly once whichever signal comes first. The
 * response time runs from the entry to that end, on the engine's clock.
 *
 * <p>A refused call is an error signal carrying the guard's {@link RefusedException} (nothing is
 * emitted before it, and the source is not subscribed), or the publisher of the fallback given to
 * {@link #monoOrElse} or {@link #fluxOrElse}. An error of the source counts as a business error
 * where the guard's exception filters say so, and a value where its {@code failsWhen} accepts it
 * (for a {@code Flux}, any element); signals pass through unchanged. When the guard's resources
 * have a rule that paces, or the guard is {@code prioritized()}, the entry, and its wait, is made
 * on {@link reactor.core.scheduler.Schedulers#boundedElastic()}, so the subscribing thread never
 * blocks; the source is then subscribed from there.
 *
 * <p>Per-value rules limit on the call's arguments: a {@link #key} (argument 0) or {@link
 * #arguments} given at the call site, or argument 0 read from the subscriber's context at
 * subscription ({@link #contextKey}). The handle is immutable and thread-safe; keep one per guard
 * and call site.
 */
public final class GuardedPublishers {

  private final Guard guard;
  private final DetachedCalls calls;
  private final @Nullable Object @Nullable [] arguments;
  private final @Nullable Object contextKey;

  private GuardedPublishers(Guard guard, DetachedCalls calls,
      @Nullable Object @Nullable [] arguments, @Nullable Object contextKey) {
    this.guard = guard;
    this.calls = calls;
    this.arguments = arguments;
    this.contextKey = contextKey;
  }

  /**
   * Returns the publisher guard of a guard; its rules are declared on its engine now, as on a
   * guard's first use.
   *
   * @param guard the guard, usually bound to an engine with {@code on(engine)}
   * @return the handle
   * @throws NullPointerException if {@code guard} is null
   */
  public static GuardedPublishers of(Guard guard) {
    Objects.requireNonNull(guard, "guard");
    return new GuardedPublishers(guard, guard.detachedCalls(), null, null);
  }

  /**
   * Returns a handle whose calls carry {@code key} as their argument 0, for per-value rules
   * ({@code Guard.perValue(0, ..)}), known at the call site.
   *
   * <pre>{@code
   * Mono<Cart> cart = carts.load(userId).transform(perUser.key(userId)::mono);
   * }</pre>
   *
   * @param key the value per-value rules limit on
   * @return the new handle
   * @throws NullPointerException if {@code key} is null
   * @throws IllegalStateException if the handle has a key or a context key already
   */
  public GuardedPublishers key(Object key) {
    Objects.requireNonNull(key, "key");
    requireNoKey("key");
    return new GuardedPublishers(guard, calls, new Object[] {key}, null);
  }

  /**
   * Returns a handle whose calls carry {@code arguments}, for per-value rules on any of their
   * positions ({@code Guard.perValue(1, ..)} limits on the second): the arguments of the method
   * that assembled the publisher, for example. A null argument is not limited on.
   *
   * <pre>{@code
   * Flux<Order> orders(String tenant, String user) {
   *   return repository.find(tenant, user).transform(guarded.arguments(tenant, user)::flux);
   * }
   * }</pre>
   *
   * @param arguments the call's arguments, copied
   * @return the new handle
   * @throws NullPointerException if {@code arguments} is null
   * @throws IllegalStateException if the handle has a key or a context key already
   */
  public GuardedPublishers arguments(@Nullable Object... arguments) {
    Objects.requireNonNull(arguments, "arguments");
    requireNoKey("arguments");
    return new GuardedPublishers(guard, calls, arguments.clone(), null);
  }

  /**
   * Returns a handle whose calls carry, as their argument 0 for per-value rules, the value the
   * subscriber's context holds under {@code contextKey} when it subscribes; a subscription whose
   * context has no such value is not limited by per-value rules.
   *
   * <pre>{@code
   * GuardedPublishers perTenant = GuardedPublishers.of(Guard.of("search").perValue(0, 5))
   *     .contextKey("tenant");
   * search.query(text).transform(perTenant::flux)
   *     .contextWrite(Context.of("tenant", tenantId));
   * }</pre>
   *
   * @param contextKey the key of the value in the subscriber's context
   * @return the new handle
   * @throws NullPointerException if {@code contextKey} is null
   * @throws IllegalStateException if the handle has a key or a context key already
   */
  public GuardedPublishers contextKey(Object contextKey) {
    Objects.requireNonNull(contextKey, "contextKey");
    requireNoKey("contextKey");
    return new GuardedPublishers(guard, calls, null, contextKey);
  }

  /**
   * Guards a {@code Mono}: each subscription is one call, ended by the value, the completion, the
   * error or a cancel, whichever comes first; a refusal is an error signal with the {@link
   * RefusedException}.
   *
   * @param source the protected publisher
   * @param <T> the value type
   * @return the guarded {@code Mono}
   */
  public <T> Mono<T> mono(Mono<T> source) {
    Objects.requireNonNull(source, "source");
    return new GuardedMono<>(bounded(source), plan(), null, false);
  }

  /**
   * Guards a {@code Mono} with a fallback for refused calls: a refused subscription is served by
   * the publisher {@code onRefused} returns for the refusal (the source is not subscribed). Errors
   * of the source still propagate; the fallback's signals are not guarded.
   *
   * <pre>{@code
   * Mono<Stock> stock = inventory.stock(item)
   *     .transform(source -> guarded.monoOrElse(source, refused -> cache.lastKnownStock(item)));
   * }</pre>
   *
   * @param source the protected publisher
   * @param onRefused the publisher serving a refused subscription; an exception it throws, or a
   *     null it returns, is the subscription's error
   * @param <T> the value type
   * @return the guarded {@code Mono}
   */
  public <T> Mono<T> monoOrElse(
      Mono<T> source, Function<? super RefusedException, ? extends Mono<? extends T>> onRefused) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(onRefused, "onRefused");
    return new GuardedMono<>(bounded(source), plan(), onRefused, false);
  }

  /**
   * Guards a {@code Flux}: each subscription is one call, spanning every element, ended by the
   * completion, the error or a cancel; a refusal is an error signal with the {@link
   * RefusedException}.
   *
   * @param source the protected publisher
   * @param <T> the element type
   * @return the guarded {@code Flux}
   */
  public <T> Flux<T> flux(Publisher<T> source) {
    Objects.requireNonNull(source, "source");
    return new GuardedFlux<>(bounded(Flux.from(source)), plan(), null, false);
  }

  /**
   * Guards a {@code Flux} with a fallback for refused calls, as {@link #monoOrElse} does for a
   * {@code Mono}.
   *
   * @param source the protected publisher
   * @param onRefused the publisher serving a refused subscription; an exception it throws, or a
   *     null it returns, is the subscription's error
   * @param <T> the element type
   * @return the guarded {@code Flux}
   */
  public <T> Flux<T> fluxOrElse(Publisher<T> source,
      Function<? super RefusedException, ? extends Publisher<? extends T>> onRefused) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(onRefused, "onRefused");
    return new GuardedFlux<>(bounded(Flux.from(source)), plan(), onRefused, false);
  }

  /**
   * The source bounded by the guard's timeout ({@code Guard.timeout}): a subscription that has not
   * ended within it is cancelled and fails with a {@link TimeoutException}, on Reactor's parallel
   * scheduler, so the call ends failed at that moment.
   */
  private <T> Mono<T> bounded(Mono<T> source) {
    Duration limit = calls.timeout();
    return limit == null ? source : source.timeout(limit, Mono.error(() -> late(limit)));
  }

  /** As {@link #bounded(Mono)}, for the whole of a {@code Flux}'s subscription. */
  private <T> Flux<T> bounded(Flux<T> source) {
    Duration limit = calls.timeout();
    if (limit == null) {
      return source;
    }
    return Flux.defer(() -> {
      AtomicBoolean expired = new AtomicBoolean();
      return source.takeUntilOther(Mono.delay(limit).doOnNext(tick -> expired.set(true)))
          .concatWith(Mono.defer(() -> expired.get() ? Mono.error(late(limit)) : Mono.empty()));
    });
  }

  private static TimeoutException late(Duration limit) {
    return new TimeoutException("the call did not complete within its timeout of " + limit);
  }

  private Plan plan() {
    return new Plan(calls, arguments, contextKey);
  }

  private void requireNoKey(String step) {
    @Nullable Object[] given = arguments;
    if (given != null || contextKey != null) {
      throw new IllegalStateException(step + ": the handle already takes its arguments from "
          + (given != null ? "the call site " + Arrays.toString(given)
              : "the context key " + contextKey)
          + "; a call has one source of arguments");
    }
  }

  @Override
  public String toString() {
    return "GuardedPublishers[" + guard
        + (arguments != null ? ", arguments=" + Arrays.toString(arguments) : "")
        + (contextKey != null ? ", contextKey=" + contextKey : "") + "]";
  }
}
