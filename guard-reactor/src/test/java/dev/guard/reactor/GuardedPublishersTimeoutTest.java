package dev.guard.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.api.CircuitBreaker;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * {@code Guard.timeout(..)} on publishers: Reactor's virtual time moves the deadline and the
 * engine's manual clock the response time, both by the same amount.
 */
class GuardedPublishersTimeoutTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void mono_thatNeverSignals_failsAtTheDeadline_andTheCallExitsFailedAndSlow() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("quote")
        .slowCallRatio(0.5, Duration.ofMillis(100)).minCalls(1)
        .recordExceptions(IllegalStateException.class)
        .timeout(Duration.ofMillis(300)).on(engine));

    StepVerifier.withVirtualTime(() -> guarded.mono(Mono.<String>never()))
        .expectSubscription()
        .then(() -> clock.advanceMillis(300))
        .thenAwait(Duration.ofMillis(300))
        .expectError(TimeoutException.class)
        .verify(Duration.ofSeconds(10));

    assertThat(engine.stats("quote").concurrency()).isZero();
    assertThat(engine.stats("quote").totalException()).isEqualTo(1);
    assertThat(engine.stats("quote").averageRt()).isEqualTo(300.0);
    assertThat(engine.breakers("quote").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void flux_boundedAsAWhole_completesWhenInTime_failsWhenNot() {
    GuardedPublishers guarded = GuardedPublishers.of(
        Guard.of("feed").timeout(Duration.ofSeconds(1)).on(engine));

    StepVerifier.withVirtualTime(() -> guarded.flux(
            Flux.interval(Duration.ofMillis(400)).take(2)))
        .thenAwait(Duration.ofMillis(800))
        .expectNext(0L, 1L)
        .verifyComplete();
    StepVerifier.withVirtualTime(() -> guarded.flux(Flux.interval(Duration.ofMillis(400))))
        .thenAwait(Duration.ofMillis(1000))
        .expectNext(0L, 1L)
        .expectError(TimeoutException.class)
        .verify(Duration.ofSeconds(10));

    assertThat(engine.stats("feed").concurrency()).isZero();
    assertThat(engine.stats("feed").totalException()).isEqualTo(1);
  }
}
