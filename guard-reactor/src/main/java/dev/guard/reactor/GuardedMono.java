package dev.guard.reactor;

import dev.guard.api.RefusedException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoOperator;
import reactor.core.scheduler.Schedulers;

/**
 * A {@code Mono} whose every subscription is one guarded call (see {@link GuardedPublishers}).
 * When entering may wait, the subscription is moved to the bounded elastic scheduler first and
 * entered there ({@code onWorker}).
 */
final class GuardedMono<T> extends MonoOperator<T, T> {

  private final Plan plan;
  private final @Nullable Function<? super RefusedException, ? extends Mono<? extends T>> onRefused;
  private final boolean onWorker;

  GuardedMono(Mono<? extends T> source, Plan plan,
      @Nullable Function<? super RefusedException, ? extends Mono<? extends T>> onRefused,
      boolean onWorker) {
    super(source);
    this.plan = plan;
    this.onRefused = onRefused;
    this.onWorker = onWorker;
  }

  @Override
  public void subscribe(CoreSubscriber<? super T> actual) {
    if (!onWorker && Admission.mayWait(plan)) {
      new GuardedMono<>(source, plan, onRefused, true)
          .subscribeOn(Schedulers.boundedElastic())
          .subscribe(actual);
      return;
    }
    Admission.subscribe(source, actual, plan, onRefused, true);
  }
}
