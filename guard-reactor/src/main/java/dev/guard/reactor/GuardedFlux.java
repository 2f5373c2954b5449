package dev.guard.reactor;

import dev.guard.api.RefusedException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxOperator;
import reactor.core.scheduler.Schedulers;

/**
 * A {@code Flux} whose every subscription is one guarded call spanning all its elements (see
 * {@link GuardedPublishers}). When entering may wait, the subscription is moved to the bounded
 * elastic scheduler first and entered there ({@code onWorker}).
 */
final class GuardedFlux<T> extends FluxOperator<T, T> {

  private final Plan plan;
  private final @Nullable Function<? super RefusedException, ? extends Publisher<? extends T>>
      onRefused;
  private final boolean onWorker;

  GuardedFlux(Flux<? extends T> source, Plan plan,
      @Nullable Function<? super RefusedException, ? extends Publisher<? extends T>> onRefused,
      boolean onWorker) {
    super(source);
    this.plan = plan;
    this.onRefused = onRefused;
    this.onWorker = onWorker;
  }

  @Override
  public void subscribe(CoreSubscriber<? super T> actual) {
    if (!onWorker && Admission.mayWait(plan)) {
      new GuardedFlux<>(source, plan, onRefused, true)
          .subscribeOn(Schedulers.boundedElastic())
          .subscribe(actual);
      return;
    }
    Admission.subscribe(source, actual, plan, onRefused, false);
  }
}
