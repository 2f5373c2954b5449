package dev.guard.reactor;

import dev.guard.internal.DetachedCalls.Detached;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Sits between an admitted subscription's source and its subscriber, passes every signal through
 * unchanged, and ends the guarded call exactly once: at the first of a terminal signal and a
 * cancel (one compare-and-set decides a race between them), before that signal goes on, so a
 * subscriber that sees the end also sees the call exited. A {@code Mono}'s call ({@code single})
 * ends with its value already, since the value is the whole of its work. Elements are judged by
 * the guard's {@code failsWhen} when it has one ({@code judges}); an empty {@code Mono} is judged
 * as the value null, as a stage completed with null is.
 *
 * <p>Invariant: {@link #ended} goes from 0 to 1 once, and only the thread that moved it ends the
 * call. guard's own failure while ending is dropped: the subscriber's signal still goes on.
 */
final class GuardedSubscriber<T> implements CoreSubscriber<T>, Subscription, Scannable {

  private static final AtomicIntegerFieldUpdater<GuardedSubscriber<?>> ENDED =
      updater();

  private final CoreSubscriber<? super T> actual;
  private final Detached call;
  private final boolean single;
  private final boolean judges;
  private @Nullable Subscription upstream;
  private boolean done;
  private boolean cancelled;
  private volatile int ended;

  GuardedSubscriber(
      CoreSubscriber<? super T> actual, Detached call, boolean single, boolean judges) {
    this.actual = actual;
    this.call = call;
    this.single = single;
    this.judges = judges;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static AtomicIntegerFieldUpdater<GuardedSubscriber<?>> updater() {
    return (AtomicIntegerFieldUpdater) AtomicIntegerFieldUpdater.newUpdater(
        GuardedSubscriber.class, "ended");
  }

  @Override
  public void onSubscribe(Subscription subscription) {
    if (Operators.validate(upstream, subscription)) {
      upstream = subscription;
      actual.onSubscribe(this);
    }
  }

  @Override
  public void onNext(T value) {
    if (done) {
      Operators.onNextDropped(value, actual.currentContext());
      return;
    }
    if (judges) {
      judge(value);
    }
    if (single) {
      end(null);
    }
    actual.onNext(value);
  }

  @Override
  public void onError(Throwable failure) {
    if (done) {
      Operators.onErrorDropped(failure, actual.currentContext());
      return;
    }
    done = true;
    end(failure);
    actual.onError(failure);
  }

  @Override
  public void onComplete() {
    if (done) {
      return;
    }
    done = true;
    if (single && judges && ended == 0) {
      judge(null);
    }
    end(null);
    actual.onComplete();
  }

  @Override
  public void request(long n) {
    Subscription current = upstream;
    if (current != null) {
      current.request(n);
    }
  }

  @Override
  public void cancel() {
    cancelled = true;
    end(null);
    Subscription current = upstream;
    if (current != null) {
      current.cancel();
    }
  }

  @Override
  public Context currentContext() {
    return actual.currentContext();
  }

  private void judge(@Nullable Object value) {
    try {
      call.judge(value);
    } catch (RuntimeException internal) {
      // guard's own failure: the value still goes on, unjudged
    }
  }

  /** Ends the call unless it has ended already; the signal that called this goes on anyway. */
  private void end(@Nullable Throwable failure) {
    if (ENDED.compareAndSet(this, 0, 1)) {
      try {
        call.end(failure);
      } catch (RuntimeException internal) {
        // guard's own failure: never the subscriber's; the engine reports its own failures
      }
    }
  }

  @Override
  public @Nullable Object scanUnsafe(Attr key) {
    if (key == Attr.PARENT) {
      return upstream;
    }
    if (key == Attr.ACTUAL) {
      return actual;
    }
    if (key == Attr.TERMINATED) {
      return done;
    }
    if (key == Attr.CANCELLED) {
      return cancelled;
    }
    if (key == Attr.RUN_STYLE) {
      return Attr.RunStyle.SYNC;
    }
    return null;
  }

  @Override
  public String toString() {
    return "GuardedSubscriber[" + call + "]";
  }
}
