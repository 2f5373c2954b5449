import org.jspecify.annotations.NullMarked;

/**
 * Project Reactor publishers guarded by a {@code Guard}: each subscription of a guarded {@code
 * Mono} or {@code Flux} is one call of the guard's resources, entered when the subscription
 * starts and exited once when it completes, fails or is cancelled.
 */
@NullMarked
module dev.guard.reactor {
  requires transitive dev.guard.dsl;
  requires transitive reactor.core;
  requires transitive org.reactivestreams;

  exports dev.guard.reactor;
}
