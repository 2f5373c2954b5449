package dev.guard.reactor;

import dev.guard.api.RefusedException;
import dev.guard.internal.DetachedCalls.Detached;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.CorePublisher;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * The entry of one subscription: enter the guard's call, then subscribe the source through a
 * {@link GuardedSubscriber} that ends the call once; on a refusal, signal the refusal (or
 * subscribe the fallback) without subscribing the source. guard's own failures never reach the
 * subscriber: a failure to decide (not a refusal) admits the subscription unguarded, as the
 * engine fails open (docs/BEHAVIOUR.md, "When guard itself fails").
 */
final class Admission {

  private Admission() {}

  /** Whether entering may wait, so that the entry must not be made on the subscribing thread. */
  static boolean mayWait(Plan plan) {
    try {
      return plan.calls().mayWait();
    } catch (RuntimeException internal) {
      return false; // guard's own failure: enter where we are, the engine decides or fails open
    }
  }

  static <T> void subscribe(
      CorePublisher<? extends T> source,
      CoreSubscriber<? super T> actual,
      Plan plan,
      @Nullable Function<? super RefusedException, ? extends Publisher<? extends T>> onRefused,
      boolean single) {
    Detached call;
    boolean judges;
    try {
      call = plan.calls().enter(plan.argumentsOf(actual.currentContext()));
      judges = plan.calls().judgesResults();
    } catch (RefusedException refused) {
      refuse(actual, refused, onRefused, single);
      return;
    } catch (RuntimeException internal) {
      source.subscribe(actual); // guard's own failure: fail open, unguarded
      return;
    }
    source.subscribe(new GuardedSubscriber<T>(actual, call, single, judges));
  }

  private static <T> void refuse(
      CoreSubscriber<? super T> actual,
      RefusedException refused,
      @Nullable Function<? super RefusedException, ? extends Publisher<? extends T>> onRefused,
      boolean single) {
    if (onRefused == null) {
      Operators.error(actual, refused);
      return;
    }
    Publisher<? extends T> fallback;
    try {
      fallback = onRefused.apply(refused);
    } catch (Throwable failure) {
      Operators.error(actual, Operators.onOperatorError(failure, actual.currentContext()));
      return;
    }
    if (fallback == null) {
      Operators.error(actual, new NullPointerException(
          "onRefused returned null for " + refused.getClass().getSimpleName()));
      return;
    }
    if (single) {
      Mono.<T>from(fallback).subscribe(actual);
    } else {
      Flux.<T>from(fallback).subscribe(actual);
    }
  }
}
