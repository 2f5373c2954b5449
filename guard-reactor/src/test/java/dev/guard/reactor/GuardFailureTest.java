package dev.guard.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.internal.DetachedCalls;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * guard's own failures never become the subscriber's (docs/BEHAVIOUR.md, "When guard itself
 * fails"): a failure to decide admits the subscription unguarded, a failure to judge or to end the
 * call leaves the signals as they were.
 */
class GuardFailureTest {

  private final IllegalStateException bug = new IllegalStateException("a bug in guard");

  @Test
  void subscribe_enteringFails_subscribesTheSourceUnguarded() {
    Broken calls = new Broken(true, false, false);

    StepVerifier.create(new GuardedMono<>(Mono.just("value"), plan(calls), null, false))
        .expectNext("value")
        .verifyComplete();
  }

  @Test
  void subscribe_endingFails_stillDeliversTheSignals() {
    Broken calls = new Broken(false, true, false);
    IllegalArgumentException own = new IllegalArgumentException("the source's own error");

    StepVerifier.create(new GuardedMono<>(Mono.just("value"), plan(calls), null, false))
        .expectNext("value")
        .verifyComplete();
    StepVerifier.create(new GuardedFlux<>(Flux.<String>error(own), plan(calls), null, false))
        .expectErrorMatches(error -> error == own)
        .verify();
    assertThat(calls.ends).hasValue(2);
  }

  @Test
  void subscribe_judgingFails_stillDeliversTheValue() {
    Broken calls = new Broken(false, false, true);

    StepVerifier.create(new GuardedFlux<>(Flux.just(1, 2), plan(calls), null, false))
        .expectNext(1, 2)
        .verifyComplete();
    assertThat(calls.ends).hasValue(1);
  }

  @Test
  void subscribe_askingWhetherItMayWaitFails_entersWhereItIs() {
    Broken calls = new Broken(false, false, false) {
      @Override
      public boolean mayWait() {
        throw bug;
      }
    };
    String caller = Thread.currentThread().getName();

    StepVerifier.create(new GuardedMono<>(
            Mono.fromCallable(() -> Thread.currentThread().getName()), plan(calls), null, false))
        .expectNext(caller)
        .verifyComplete();
  }

  private static Plan plan(DetachedCalls calls) {
    return new Plan(calls, null, null);
  }

  /** Detached calls that fail where told to. */
  private class Broken implements DetachedCalls {
    final AtomicInteger ends = new AtomicInteger();
    private final boolean enterFails;
    private final boolean endFails;
    private final boolean judgeFails;

    Broken(boolean enterFails, boolean endFails, boolean judgeFails) {
      this.enterFails = enterFails;
      this.endFails = endFails;
      this.judgeFails = judgeFails;
    }

    @Override
    public Detached enter(@Nullable Object[] args) {
      if (enterFails) {
        throw bug;
      }
      return new Detached() {
        @Override
        public void judge(@Nullable Object result) {
          if (judgeFails) {
            throw bug;
          }
        }

        @Override
        public void end(@Nullable Throwable failure) {
          ends.incrementAndGet();
          if (endFails) {
            throw bug;
          }
        }
      };
    }

    @Override
    public boolean mayWait() {
      return false;
    }

    @Override
    public boolean judgesResults() {
      return true;
    }

    @Override
    public java.time.@Nullable Duration timeout() {
      return null;
    }
  }
}
