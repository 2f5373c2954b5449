package dev.guard.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Sinks;

/**
 * Every asynchronous form of a guard gives its place back exactly once, whatever ends the call
 * first: the source completing, the source failing, the caller cancelling, the guard's deadline.
 * The endings of several calls run at once on real threads, released together, in a generated
 * order; afterwards no place is held, every admitted call exited once, and every caller's stage
 * or subscription is over.
 */
class AsyncEndingRaceProperties {

  private static final ExecutorService RACERS = Executors.newFixedThreadPool(4);
  private static final int CALLS = 8;
  private static final Duration TIMEOUT = Duration.ofSeconds(1);

  enum Form { STAGE, TIMED_STAGE, MONO, FLUX }

  enum Ending { COMPLETE, FAIL, CANCEL, DEADLINE }

  @AfterContainer
  static void stopRacers() {
    RACERS.shutdownNow();
  }

  @Provide
  Arbitrary<List<Ending>> endings() {
    return Arbitraries.of(Ending.class).list().uniqueElements().ofMinSize(1).ofMaxSize(4);
  }

  @Property(tries = 200)
  void everyCall_givesItsPlaceBackOnce_whateverEndsItFirst(@ForAll Form form,
      @ForAll("endings") List<Ending> endings, @ForAll long order) throws Exception {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    Guard guard = Guard.of("r").concurrency(1000);
    List<Call> calls = new ArrayList<>();
    for (int i = 0; i < CALLS; i++) {
      calls.add(switch (form) {
        case STAGE -> new StageCall(guard.on(engine));
        case TIMED_STAGE -> new StageCall(guard.timeout(TIMEOUT).on(engine));
        case MONO -> new PublisherCall(GuardedPublishers.of(guard.on(engine)), true);
        case FLUX -> new PublisherCall(GuardedPublishers.of(guard.on(engine)), false);
      });
    }
    assertThat(engine.stats("r").concurrency()).isEqualTo(CALLS);

    List<Runnable> racers = new ArrayList<>();
    for (Ending ending : endings) {
      if (ending == Ending.DEADLINE) {
        racers.add(() -> clock.advance(TIMEOUT));
      } else {
        calls.forEach(call -> racers.add(() -> call.end(ending)));
      }
    }
    Collections.shuffle(racers, new Random(order));
    race(racers);
    calls.forEach(call -> call.end(Ending.COMPLETE)); // a call nothing ended ends now
    for (Call call : calls) {
      call.awaitOver();
    }
    int exits = CALLS;
    if (form == Form.TIMED_STAGE) { // an expiry that lost to a cancel may still be exiting
      awaitTheDeadlineThread(guard.timeout(TIMEOUT).on(engine), clock);
      exits++;
    }

    assertThat(engine.stats("r").concurrency()).as("places held").isZero();
    clock.advance(Duration.ofSeconds(2)); // closes the seconds the totals are read from
    assertThat(engine.metricsTotals("r").success()).as("exits").isEqualTo(exits);
  }

  /**
   * Waits until the deadline thread has run every expiry due so far: it runs them one at a time,
   * in order, so once a call that expires after them has failed, they have all ended.
   */
  private static void awaitTheDeadlineThread(Guard timed, ManualClock clock) throws Exception {
    CompletableFuture<String> last = timed.<String>decorateCompletionStage(CompletableFuture::new)
        .get().toCompletableFuture();
    clock.advance(TIMEOUT);
    last.handle((value, failure) -> failure).get(10, TimeUnit.SECONDS);
  }

  private static void race(List<Runnable> racers) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> running = new ArrayList<>();
    for (Runnable racer : racers) {
      running.add(RACERS.submit(() -> {
        start.await();
        racer.run();
        return null;
      }));
    }
    start.countDown();
    for (Future<?> racer : running) {
      racer.get(10, TimeUnit.SECONDS);
    }
  }

  /** One admitted call whose ending the property drives. */
  private interface Call {
    void end(Ending ending);

    /** Waits, bounded, until the caller's side of the call is over. */
    void awaitOver() throws Exception;
  }

  private static final class StageCall implements Call {
    private final CompletableFuture<String> source = new CompletableFuture<>();
    private final CompletableFuture<String> result;

    StageCall(Guard bound) {
      Supplier<CompletionStage<String>> guarded = bound.decorateCompletionStage(() -> source);
      result = guarded.get().toCompletableFuture();
    }

    @Override
    public void end(Ending ending) {
      switch (ending) {
        case COMPLETE -> source.complete("done");
        case FAIL -> source.completeExceptionally(new IllegalStateException("failed"));
        case CANCEL -> result.cancel(true);
        case DEADLINE -> throw new IllegalArgumentException("the clock ends calls by deadline");
      }
    }

    @Override
    public void awaitOver() throws Exception {
      result.handle((value, failure) -> value).get(10, TimeUnit.SECONDS);
    }
  }

  private static final class PublisherCall implements Call {
    private final Sinks.One<String> source = Sinks.one();
    private final CountDownLatch over = new CountDownLatch(1);
    private final BaseSubscriber<String> subscriber = new BaseSubscriber<>() {
      @Override
      protected void hookOnSubscribe(Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
      }

      @Override
      protected void hookOnError(Throwable failure) {
        // an ending the property chose
      }

      @Override
      protected void hookFinally(reactor.core.publisher.SignalType type) {
        over.countDown();
      }
    };

    PublisherCall(GuardedPublishers guarded, boolean mono) {
      if (mono) {
        guarded.mono(source.asMono()).subscribe(subscriber);
      } else {
        guarded.flux(source.asMono().flux()).subscribe(subscriber);
      }
    }

    @Override
    public void end(Ending ending) {
      switch (ending) {
        case COMPLETE -> source.tryEmitValue("done");
        case FAIL -> source.tryEmitError(new IllegalStateException("failed"));
        case CANCEL -> subscriber.cancel();
        case DEADLINE -> throw new IllegalArgumentException("the clock ends calls by deadline");
      }
    }

    @Override
    public void awaitOver() throws Exception {
      assertThat(over.await(10, TimeUnit.SECONDS)).as("subscription over").isTrue();
    }
  }
}
