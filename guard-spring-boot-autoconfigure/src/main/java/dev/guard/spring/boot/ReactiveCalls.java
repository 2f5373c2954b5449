package dev.guard.spring.boot;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.reactor.GuardedPublishers;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.beans.factory.ObjectProvider;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Guarded methods returning {@code Mono} or {@code Flux}: the method runs (assembles) when called,
 * and each subscription of what it returns is one call, through guard-reactor, with the method's
 * arguments for per-value rules. Loaded only when
 * Reactor and guard-reactor are on the class path.
 */
final class ReactiveCalls {

  private final ObjectProvider<GuardEngine> engines;
  private final Map<String, GuardedPublishers> handles = new ConcurrentHashMap<>();

  ReactiveCalls(ObjectProvider<GuardEngine> engines) {
    this.engines = engines;
  }

  @Nullable Object guard(GuardedMethod plan, MethodInvocation invocation, Object target,
      Consumer<RefusedException> observer) throws Throwable {
    GuardedPublishers handle = handles.computeIfAbsent(plan.resource,
        name -> GuardedPublishers.of(Guard.of(name).on(engines.getObject())));
    @Nullable Object[] args = invocation.getArguments();
    GuardedPublishers guarded = args.length == 0 ? handle : handle.arguments(args);
    Object returned;
    try {
      returned = invocation.proceed();
    } catch (Throwable thrown) {
      returned = plan.shape == GuardedMethod.Shape.MONO ? Mono.error(thrown) : Flux.error(thrown);
    }
    if (returned == null) {
      return null;
    }
    GuardedMethod.Fallback onRefusal = plan.onRefusal;
    GuardedMethod.Fallback onFailure = plan.onFailure;
    if (plan.shape == GuardedMethod.Shape.MONO) {
      Mono<Object> source = Mono.from(cast(returned));
      Mono<Object> result = guarded.monoOrElse(source, refused -> {
        observer.accept(refused);
        if (onRefusal == null || !onRefusal.handles(refused)) {
          return Mono.error(refused);
        }
        return Mono.defer(() -> Mono.from(cast(call(onRefusal, target, args, refused))));
      });
      return onFailure == null ? result : result.onErrorResume(
          error -> onFailure.handles(error) && !ownRefusal(error, plan),
          error -> Mono.defer(() -> Mono.from(cast(call(onFailure, target, args, error)))));
    }
    Flux<Object> result = guarded.fluxOrElse(cast(returned), refused -> {
      observer.accept(refused);
      if (onRefusal == null || !onRefusal.handles(refused)) {
        return Flux.error(refused);
      }
      return Flux.defer(() -> cast(call(onRefusal, target, args, refused)));
    });
    return onFailure == null ? result : result.onErrorResume(
        error -> onFailure.handles(error) && !ownRefusal(error, plan),
        error -> Flux.defer(() -> cast(call(onFailure, target, args, error))));
  }

  private static boolean ownRefusal(Throwable error, GuardedMethod plan) {
    return error instanceof RefusedException refused && refused.resource().equals(plan.resource);
  }

  @SuppressWarnings("unchecked")
  private static Publisher<Object> cast(@Nullable Object publisher) {
    if (publisher == null) {
      return Mono.error(new NullPointerException("the fallback returned null"));
    }
    return (Publisher<Object>) publisher;
  }

  private static @Nullable Object call(GuardedMethod.Fallback fallback, Object target,
      @Nullable Object[] args, Throwable error) {
    try {
      return fallback.invoke(target, args, error);
    } catch (RuntimeException | Error thrown) {
      throw thrown;
    } catch (Throwable thrown) {
      return Mono.error(thrown);
    }
  }
}
