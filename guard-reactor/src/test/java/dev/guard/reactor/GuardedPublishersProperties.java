package dev.guard.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testkit.ManualClock;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Combinators;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.publisher.TestPublisher;
import reactor.test.subscriber.TestSubscriber;

/**
 * Over any sequence of subscribe, emit, complete, error and cancel, on guarded monos and fluxes
 * under a concurrency limit: the concurrency gauge always equals the subscriptions still open,
 * returns to 0 at the end, and every admitted subscription exits exactly once.
 */
class GuardedPublishersProperties {

  enum Kind { SUBSCRIBE_MONO, SUBSCRIBE_FLUX, EMIT, COMPLETE, ERROR, CANCEL }

  record Step(Kind kind, int target) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> step = Combinators.combine(
            Arbitraries.of(Kind.class), Arbitraries.integers().between(0, 50))
        .as(Step::new);
    return step.list().ofMaxSize(60);
  }

  @Property(tries = 300)
  void everySubscription_exitsOnce_andTheGaugeReturnsToZero(
      @ForAll("steps") List<Step> steps, @ForAll("limits") int limit) {
    ManualClock clock = new ManualClock();
    GuardEngine engine = GuardEngine.builder().clock(clock).build();
    GuardedPublishers guarded = GuardedPublishers.of(
        Guard.of("calls").concurrency(limit).errorRatio(1.0).minCalls(1_000).on(engine));
    List<Open> open = new ArrayList<>();
    int subscribed = 0;

    for (Step step : steps) {
      if (step.kind() == Kind.SUBSCRIBE_MONO || step.kind() == Kind.SUBSCRIBE_FLUX) {
        open.add(Open.subscribe(guarded, step.kind() == Kind.SUBSCRIBE_MONO));
        subscribed++;
      } else if (!open.isEmpty()) {
        Open target = open.get(step.target() % open.size());
        target.apply(step.kind());
      }
      open.removeIf(Open::ended);
      assertThat(stats(engine).concurrency()).as("gauge after %s", step).isEqualTo(open.size());
    }
    open.forEach(Open::cancel);

    NodeStats stats = stats(engine);
    assertThat(stats.concurrency()).isZero();
    assertThat(stats.totalRequest()).isEqualTo(subscribed);
    assertThat(stats.totalPass() + stats.totalRefused()).isEqualTo(subscribed);
    assertThat(stats.successQps()).as("exits").isEqualTo(stats.totalPass());
  }

  @Provide
  Arbitrary<Integer> limits() {
    return Arbitraries.integers().between(1, 6);
  }

  private static NodeStats stats(GuardEngine engine) {
    return engine.stats("calls");
  }

  /** One subscription whose source the property drives. */
  private static final class Open {
    private final TestPublisher<Integer> source = TestPublisher.createCold();
    private final TestSubscriber<Integer> subscriber = TestSubscriber.create();
    private final boolean mono;
    private boolean finished;

    private Open(boolean mono) {
      this.mono = mono;
    }

    static Open subscribe(GuardedPublishers guarded, boolean mono) {
      Open open = new Open(mono);
      if (mono) {
        Mono<Integer> guardedMono = guarded.mono(open.source.mono());
        guardedMono.subscribe(open.subscriber);
      } else {
        Flux<Integer> guardedFlux = guarded.flux(open.source.flux());
        guardedFlux.subscribe(open.subscriber);
      }
      return open;
    }

    void apply(Kind kind) {
      switch (kind) {
        case EMIT -> source.next(1);
        case COMPLETE -> source.complete();
        case ERROR -> source.error(new IllegalStateException("failed"));
        case CANCEL -> cancel();
        default -> throw new IllegalArgumentException("not a signal: " + kind);
      }
    }

    void cancel() {
      finished = true;
      subscriber.cancel();
    }

    /** Whether the subscription is over: terminated, refused, cancelled, or a mono's value seen. */
    boolean ended() {
      return finished || subscriber.isTerminatedOrCancelled()
          || (mono && !subscriber.getReceivedOnNext().isEmpty());
    }
  }
}
