package dev.guard.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TimeSource;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;
import reactor.test.subscriber.TestSubscriber;
import reactor.test.util.RaceTestUtils;

/** Waits of paced guards off the subscribing thread, and cancels racing completions. */
class GuardedPublishersWaitsTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Test
  void mono_pacedCall_waitsOnAWorkerWhileTheSubscribingThreadGoesOn() throws Exception {
    ManualClock clock = ManualClock.parking();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    GuardedPublishers paced = GuardedPublishers.of(
        Guard.of("paced").qps(10).pacing(Duration.ofSeconds(1)).on(engine));
    Mono<String> thread = paced.mono(Mono.fromCallable(() -> Thread.currentThread().getName()));
    StepVerifier.create(thread).expectNextCount(1).expectComplete().verify(PATIENCE);

    TestSubscriber<String> second = TestSubscriber.create();
    thread.subscribe(second);                                    // returns while the call waits

    assertThat(clock.awaitSleepers(1, PATIENCE)).isTrue();
    assertThat(second.getReceivedOnNext()).isEmpty();
    clock.advanceMillis(100);
    second.block(PATIENCE);
    assertThat(second.getReceivedOnNext()).singleElement().asString()
        .startsWith("boundedElastic");
    assertThat(engine.stats("paced").totalPass()).isEqualTo(2);
    assertThat(engine.stats("paced").concurrency()).isZero();
  }

  @Test
  void mono_cancelledWhileItsCallWaits_interruptsTheWaitAndRefusesTheCall() throws Exception {
    ManualClock parking = ManualClock.parking();
    CountDownLatch waitEnded = new CountDownLatch(1);
    TimeSource clock = new TimeSource() {
      @Override
      public long nanoTime() {
        return parking.nanoTime();
      }

      @Override
      public void sleep(long nanos) throws InterruptedException {
        try {
          parking.sleep(nanos);
        } finally {
          waitEnded.countDown();
        }
      }
    };
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    GuardedPublishers paced = GuardedPublishers.of(
        Guard.of("paced").qps(10).pacing(Duration.ofSeconds(1)).on(engine));
    StepVerifier.create(paced.mono(Mono.just(1))).expectNext(1).expectComplete().verify(PATIENCE);
    TestSubscriber<Integer> second = TestSubscriber.create();
    paced.mono(Mono.just(2)).subscribe(second);
    assertThat(parking.awaitSleepers(1, PATIENCE)).isTrue();

    second.cancel();

    assertThat(waitEnded.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(parking.sleepers()).isZero();
    assertThat(second.getReceivedOnNext()).isEmpty();
    assertThat(engine.stats("paced").concurrency()).isZero();
  }

  @Test
  void mono_pacedCallUnderVirtualTime_isAdmittedAfterItsWaitOnTheEnginesClock() {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    GuardedPublishers paced = GuardedPublishers.of(
        Guard.of("paced").qps(10).pacing(Duration.ofSeconds(1)).on(engine));
    long start = clock.nanoTime();

    for (int i = 0; i < 3; i++) {
      StepVerifier.withVirtualTime(() -> paced.mono(Mono.just("ok")))
          .expectNext("ok")
          .verifyComplete();
    }

    assertThat(clock.nanoTime() - start).isEqualTo(Duration.ofMillis(200).toNanos());
    assertThat(engine.stats("paced").totalPass()).isEqualTo(3);
  }

  @Test
  void mono_unpacedGuard_entersOnTheSubscribingThread() {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("plain").qps(10).on(engine));
    String caller = Thread.currentThread().getName();

    StepVerifier.create(guarded.mono(Mono.fromCallable(() -> Thread.currentThread().getName())))
        .expectNext(caller)
        .verifyComplete();
  }

  @Test
  void cancelRacingCompletion_exitsExactlyOnceEveryTime() {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    GuardedPublishers guarded = GuardedPublishers.of(Guard.of("raced").on(engine));
    int rounds = 500;

    for (int i = 0; i < rounds; i++) {
      TestPublisher<Integer> source = TestPublisher.create();
      Holder<Integer> subscriber = new Holder<>();
      guarded.flux(source.flux()).subscribe(subscriber);
      RaceTestUtils.race(source::complete, () -> subscriber.subscription.get().cancel());
    }

    assertThat(engine.stats("raced").concurrency()).isZero();
    assertThat(engine.stats("raced").totalPass()).isEqualTo(rounds);
    assertThat(engine.stats("raced").successQps()).isEqualTo(rounds);
  }

  /** Keeps its subscription for the test to cancel. */
  private static final class Holder<T> extends BaseSubscriber<T> {
    final AtomicReference<Subscription> subscription = new AtomicReference<>();

    @Override
    protected void hookOnSubscribe(Subscription given) {
      subscription.set(given);
      given.request(Long.MAX_VALUE);
    }
  }
}
