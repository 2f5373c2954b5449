package dev.guard.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;
import reactor.util.context.Context;

class GuardedPublishersTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private NodeStats stats(String resource) {
    return engine.stats(resource);
  }

  @Test
  void mono_admitted_emitsTheValueAndExitsOnce() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("quote").concurrency(1).on(engine));

    StepVerifier.create(guarded.mono(Mono.just("ok")))
        .expectNext("ok")
        .verifyComplete();

    assertThat(stats("quote").concurrency()).isZero();
    assertThat(stats("quote").totalPass()).isEqualTo(1);
    assertThat(stats("quote").successQps()).isEqualTo(1.0);
    assertThat(stats("quote").totalException()).isZero();
  }

  @Test
  void mono_refused_signalsTheRefusalWithoutSubscribingTheSource() {
    AtomicInteger subscribed = new AtomicInteger();
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("quote").qps(0).on(engine));

    StepVerifier.create(guarded.mono(Mono.just("ok").doOnSubscribe(s -> subscribed.incrementAndGet())))
        .expectError(RefusedException.Flow.class)
        .verify();

    assertThat(subscribed).hasValue(0);
    assertThat(stats("quote").totalRefused()).isEqualTo(1);
    assertThat(stats("quote").concurrency()).isZero();
  }

  @Test
  void monoOrElse_refused_servesTheFallbackForTheRefusal() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("stock").qps(0).on(engine));

    Mono<String> stock = guarded.monoOrElse(Mono.just("live"),
        refused -> Mono.just("cached after " + refused.getClass().getSimpleName()));

    StepVerifier.create(stock)
        .expectNext("cached after Flow")
        .verifyComplete();
  }

  @Test
  void monoOrElse_admitted_neverCallsTheFallback() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("stock").on(engine));

    Mono<String> stock = guarded.monoOrElse(Mono.just("live"), refused -> {
      throw new AssertionError("not refused");
    });

    StepVerifier.create(stock).expectNext("live").verifyComplete();
  }

  @Test
  void monoOrElse_fallbackThrows_isTheSubscriptionsError() {
    IllegalStateException broken = new IllegalStateException("no cache");
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("stock").qps(0).on(engine));

    Mono<String> stock = guarded.monoOrElse(Mono.just("live"), refused -> {
      throw broken;
    });

    StepVerifier.create(stock).expectErrorMatches(error -> error == broken).verify();
  }

  @Test
  void fluxOrElse_refused_servesTheFallbackPublisher() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("prices").qps(0).on(engine));

    StepVerifier.create(guarded.fluxOrElse(Flux.just(1, 2), refused -> Flux.just(-1, -2, -3)))
        .expectNext(-1, -2, -3)
        .verifyComplete();
  }

  @Test
  void mono_errors_passThroughUnchangedAndOpenTheBreaker() {
    IllegalStateException down = new IllegalStateException("remote down");
    GuardedPublishers guarded = GuardedPublishers.of(
        Guard.of("payments").errorCount(2).minCalls(3).on(engine));
    Mono<String> payment = guarded.mono(Mono.error(down));

    for (int i = 0; i < 3; i++) {
      StepVerifier.create(payment).expectErrorMatches(error -> error == down).verify();
    }

    StepVerifier.create(payment).expectError(RefusedException.Breaker.class).verify();
    assertThat(stats("payments").totalException()).isEqualTo(3);
    assertThat(stats("payments").concurrency()).isZero();
  }

  @Test
  void mono_ignoredException_doesNotCountAsAFailure() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("payments")
        .errorCount(0).minCalls(1).ignoreExceptions(IllegalArgumentException.class).on(engine));
    Mono<String> payment = guarded.mono(Mono.error(new IllegalArgumentException("bad card")));

    StepVerifier.create(payment).expectError(IllegalArgumentException.class).verify();
    StepVerifier.create(payment).expectError(IllegalArgumentException.class).verify();

    assertThat(stats("payments").totalException()).isZero();
    assertThat(stats("payments").totalPass()).isEqualTo(2);
  }

  @Test
  void mono_valueFailsWhen_countsAsAFailureAndIsStillEmitted() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("catalog")
        .failsWhen(result -> result instanceof Integer status && status >= 500).on(engine));

    StepVerifier.create(guarded.mono(Mono.just(503))).expectNext(503).verifyComplete();
    StepVerifier.create(guarded.mono(Mono.just(200))).expectNext(200).verifyComplete();

    assertThat(stats("catalog").totalException()).isEqualTo(1);
    assertThat(stats("catalog").totalPass()).isEqualTo(2);
  }

  @Test
  void flux_anElementFailsWhen_countsTheSubscriptionAsOneFailure() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("catalog")
        .failsWhen(result -> result instanceof Integer status && status >= 500).on(engine));

    StepVerifier.create(guarded.flux(Flux.just(200, 503, 500, 200)))
        .expectNext(200, 503, 500, 200)
        .verifyComplete();

    assertThat(stats("catalog").totalException()).isEqualTo(1);
  }

  @Test
  void mono_cancelled_exitsExactlyOnceAndFreesTheSlot() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("slow").concurrency(1).on(engine));

    StepVerifier.create(guarded.mono(Mono.never()))
        .expectSubscription()
        .then(() -> assertThat(stats("slow").concurrency()).isEqualTo(1))
        .thenCancel()
        .verify();

    assertThat(stats("slow").concurrency()).isZero();
    assertThat(stats("slow").totalPass()).isEqualTo(1);
    assertThat(stats("slow").successQps()).isEqualTo(1.0);
    assertThat(stats("slow").totalException()).isZero();
    StepVerifier.create(guarded.mono(Mono.just("again"))).expectNext("again").verifyComplete();
  }

  @Test
  void mono_cancelledFromItsValue_exitsOnce() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("slow").on(engine));

    guarded.mono(Mono.just("done")).subscribe(new CancelOnNext<>());

    assertThat(stats("slow").concurrency()).isZero();
    assertThat(stats("slow").successQps()).isEqualTo(1.0);
  }

  @Test
  void flux_cancelledFromAnElement_exitsOnce() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("slow").on(engine));
    CancelOnNext<Integer> subscriber = new CancelOnNext<>();

    guarded.flux(Flux.just(1, 2, 3)).subscribe(subscriber);

    assertThat(subscriber.seen).hasValue(1);
    assertThat(stats("slow").concurrency()).isZero();
    assertThat(stats("slow").successQps()).isEqualTo(1.0);
  }

  /** Cancels its subscription from the first value it sees. */
  private static final class CancelOnNext<T> extends BaseSubscriber<T> {
    final AtomicInteger seen = new AtomicInteger();

    @Override
    protected void hookOnNext(T value) {
      seen.incrementAndGet();
      cancel();
    }
  }

  @Test
  void mono_pendingSubscription_holdsItsSlotSoTheNextIsRefused() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("slow").concurrency(1).on(engine));

    StepVerifier.create(guarded.mono(Mono.never()))
        .expectSubscription()
        .then(() -> StepVerifier.create(guarded.mono(Mono.just("second")))
            .expectError(RefusedException.Flow.class)
            .verify())
        .thenCancel()
        .verify();

    assertThat(stats("slow").totalRefused()).isEqualTo(1);
    assertThat(stats("slow").concurrency()).isZero();
  }

  @Test
  void contextKey_valueInTheSubscribersContext_isLimitedPerValue() {
    GuardedPublishers perTenant = GuardedPublishers.of(
        Guard.of("search").perValue(0, 1).on(engine)).contextKey("tenant");
    Mono<String> search = perTenant.mono(Mono.just("page"));

    StepVerifier.create(search.contextWrite(Context.of("tenant", "a")))
        .expectNext("page").verifyComplete();
    StepVerifier.create(search.contextWrite(Context.of("tenant", "a")))
        .expectError(RefusedException.PerValue.class).verify();
    StepVerifier.create(search.contextWrite(Context.of("tenant", "b")))
        .expectNext("page").verifyComplete();
    StepVerifier.create(search).expectNext("page").verifyComplete();
  }

  @Test
  void key_givenAtTheCallSite_isLimitedPerValue() {
    GuardedPublishers perUser = GuardedPublishers.of(Guard.of("cart").perValue(0, 1).on(engine));

    StepVerifier.create(perUser.key("u1").mono(Mono.just(1))).expectNext(1).verifyComplete();
    StepVerifier.create(perUser.key("u1").mono(Mono.just(1)))
        .expectError(RefusedException.PerValue.class).verify();
    StepVerifier.create(perUser.key("u2").mono(Mono.just(1))).expectNext(1).verifyComplete();
  }

  @Test
  void arguments_givenAtTheCallSite_areLimitedOnTheRulesPosition() {
    GuardedPublishers perUser = GuardedPublishers.of(Guard.of("orders").perValue(1, 1).on(engine));

    StepVerifier.create(perUser.arguments("acme", "u1").flux(Flux.just(1)))
        .expectNext(1).verifyComplete();
    StepVerifier.create(perUser.arguments("globex", "u1").flux(Flux.just(1)))
        .expectError(RefusedException.PerValue.class).verify();
    StepVerifier.create(perUser.arguments("acme", "u2").flux(Flux.just(1)))
        .expectNext(1).verifyComplete();
    StepVerifier.create(perUser.arguments("acme", null).flux(Flux.just(1)))
        .expectNext(1).verifyComplete();
  }

  @Test
  void arguments_areCopied_whenTheHandleIsMade() {
    GuardedPublishers perUser = GuardedPublishers.of(Guard.of("orders").perValue(0, 1).on(engine));
    Object[] arguments = {"u1"};
    GuardedPublishers forU1 = perUser.arguments(arguments);
    arguments[0] = "u2";

    StepVerifier.create(forU1.mono(Mono.just(1))).expectNext(1).verifyComplete();
    StepVerifier.create(perUser.key("u1").mono(Mono.just(1)))
        .expectError(RefusedException.PerValue.class).verify();
  }

  @Test
  void arguments_afterAKey_areRejected() {
    GuardedPublishers keyed = GuardedPublishers.of(Guard.of("cart").on(engine)).key("u1");

    assertThatThrownBy(() -> keyed.arguments("u1", "u2"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("arguments");
  }

  @Test
  void key_secondKeySource_isRejected() {
    GuardedPublishers keyed = GuardedPublishers.of(Guard.of("cart").on(engine)).key("u1");

    assertThatThrownBy(() -> keyed.contextKey("user"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("contextKey");
  }

  @Test
  void flux_subscription_isOneCallSpanningEveryElement() {
    TestPublisher<Integer> source = TestPublisher.create();
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("prices").concurrency(1).on(engine));

    StepVerifier.create(guarded.flux(source.flux()))
        .then(() -> source.next(1, 2))
        .expectNext(1, 2)
        .then(() -> assertThat(stats("prices").concurrency()).isEqualTo(1))
        .then(() -> clock.advanceMillis(25))
        .then(() -> source.next(3).complete())
        .expectNext(3)
        .verifyComplete();

    assertThat(stats("prices").totalPass()).isEqualTo(1);
    assertThat(stats("prices").concurrency()).isZero();
    assertThat(stats("prices").averageRt()).isEqualTo(25.0);
  }

  @Test
  void flux_cancelled_exitsOnceAndCancelsTheSource() {
    TestPublisher<Integer> source = TestPublisher.create();
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("prices").on(engine));

    StepVerifier.create(guarded.flux(source.flux()))
        .then(() -> source.next(1))
        .expectNext(1)
        .thenCancel()
        .verify();

    source.assertCancelled();
    assertThat(stats("prices").concurrency()).isZero();
    assertThat(stats("prices").successQps()).isEqualTo(1.0);
  }

  @Test
  void mono_assembledButNotSubscribed_takesNothing() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("lazy").qps(1).on(engine));

    Mono<String> assembled = guarded.mono(Mono.just("x"));
    Mono<String> transformed = Mono.just("y").transform(guarded::mono);

    assertThat(assembled).isNotNull();
    assertThat(transformed).isNotNull();
    assertThat(stats("lazy").totalRequest()).isZero();
    StepVerifier.create(assembled).expectNext("x").verifyComplete();
  }

  @Test
  void mono_resubscribed_takesANewEntryEachTime() {
    AtomicInteger attempts = new AtomicInteger();
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("retried").on(engine));
    Mono<Integer> flaky = Mono.fromCallable(() -> {
      if (attempts.incrementAndGet() < 3) {
        throw new IllegalStateException("attempt " + attempts.get());
      }
      return attempts.get();
    });

    StepVerifier.create(guarded.mono(flaky).retry(5)).expectNext(3).verifyComplete();

    assertThat(stats("retried").totalPass()).isEqualTo(3);
    assertThat(stats("retried").totalException()).isEqualTo(2);
    assertThat(stats("retried").concurrency()).isZero();
  }

  @Test
  void mono_responseTime_isMeasuredOnTheEnginesClockNotOnVirtualTime() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("delayed").on(engine));

    StepVerifier.withVirtualTime(
            () -> guarded.mono(Mono.delay(Duration.ofSeconds(5)).thenReturn("late")))
        .expectSubscription()
        .then(() -> assertThat(stats("delayed").concurrency()).isEqualTo(1))
        .then(() -> clock.advanceMillis(40))
        .thenAwait(Duration.ofSeconds(5))
        .expectNext("late")
        .verifyComplete();

    assertThat(stats("delayed").averageRt()).isEqualTo(40.0);
    assertThat(stats("delayed").concurrency()).isZero();
  }

  @Test
  void flux_cancelledUnderVirtualTime_exitsOnce() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("ticks").concurrency(1).on(engine));

    StepVerifier.withVirtualTime(() -> guarded.flux(Flux.interval(Duration.ofSeconds(1))))
        .expectSubscription()
        .thenAwait(Duration.ofSeconds(3))
        .expectNext(0L, 1L, 2L)
        .thenCancel()
        .verify();

    assertThat(stats("ticks").concurrency()).isZero();
    assertThat(stats("ticks").totalPass()).isEqualTo(1);
    assertThat(stats("ticks").successQps()).isEqualTo(1.0);
  }

  @Test
  void mono_refusalIsARefusedException_forEveryKindOfRefusal() {
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("any").qps(0).on(engine));

    StepVerifier.create(guarded.mono(Mono.just(1)))
        .expectErrorSatisfies(error -> assertThat(error).isInstanceOf(RefusedException.class))
        .verify();
  }
}
