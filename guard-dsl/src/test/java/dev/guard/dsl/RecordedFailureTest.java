package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A body given its call records failures without throwing. */
class RecordedFailureTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void recordFailure_opensTheBreaker_andTheBodysValueIsReturned() {
    Supplier<String> quote = Guard.of("pricing").errorCount(1).minCalls(1).on(engine)
        .decorateWithCall(call -> {
          call.recordFailure(new IllegalStateException("timed out"));
          return "unavailable";
        });

    assertThat(quote.get()).isEqualTo("unavailable");
    assertThat(engine.breakers("pricing").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(quote.get()).isEqualTo("unavailable");

    assertThat(engine.breakers("pricing").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThatThrownBy(quote::get).isInstanceOf(RefusedException.Breaker.class);
  }

  @Test
  void bodyThatRecordsNothing_countsAsSuccess() {
    Supplier<String> quote = Guard.of("pricing").errorCount(0).minCalls(1).on(engine)
        .decorateWithCall(call -> "fine");

    assertThat(quote.get()).isEqualTo("fine");

    assertThat(engine.stats("pricing").successQps()).isEqualTo(1.0);
    assertThat(engine.stats("pricing").exceptionQps()).isZero();
  }

  @Test
  void recordFailure_isNotFilteredByIgnoredExceptions() {
    Supplier<String> quote = Guard.of("pricing").errorCount(0).minCalls(1)
        .ignoreExceptions(IllegalArgumentException.class).on(engine)
        .decorateWithCall(call -> {
          call.recordFailure(new IllegalArgumentException("recorded on purpose"));
          return "x";
        });

    quote.get();

    assertThat(engine.breakers("pricing").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void thrownExceptions_passThroughUnchanged_andCountAsUsual() {
    IllegalStateException down = new IllegalStateException("down");
    Supplier<String> quote = Guard.of("pricing").errorCount(0).minCalls(1).on(engine)
        .decorateWithCall(call -> {
          throw down;
        });

    assertThatThrownBy(quote::get).isSameAs(down);

    assertThat(engine.breakers("pricing").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void recordFailure_afterTheBodyReturned_doesNothing() {
    AtomicReference<Guard.Call> kept = new AtomicReference<>();
    Supplier<String> quote = Guard.of("pricing").errorCount(0).minCalls(1).on(engine)
        .decorateWithCall(call -> {
          kept.set(call);
          return "x";
        });

    quote.get();
    kept.get().recordFailure(new IllegalStateException("late"));

    assertThat(engine.breakers("pricing").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(engine.stats("pricing").exceptionQps()).isZero();
  }

  @Test
  void refusedCall_doesNotRunTheBody() {
    AtomicInteger runs = new AtomicInteger();
    Supplier<String> quote = Guard.of("pricing").qps(0).on(engine)
        .decorateWithCall(call -> {
          runs.incrementAndGet();
          return "x";
        });

    assertThatThrownBy(quote::get).isInstanceOf(dev.guard.api.RefusedException.Flow.class);
    assertThat(runs).hasValue(0);
  }

  @Test
  void recordFailure_onAComposedGuard_countsOnEveryResource() {
    Guard outer = Guard.of("outer").errorCount(0).minCalls(1);
    Guard inner = Guard.of("inner").errorCount(0).minCalls(1);
    Supplier<String> both = outer.andThen(inner).on(engine).decorateWithCall(call -> {
      call.recordFailure(new IllegalStateException("failed"));
      return "x";
    });

    both.get();

    assertThat(engine.breakers("outer").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(engine.breakers("inner").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void refusalByTheSecondPart_exitsTheFirst() {
    Guard outer = Guard.of("outer").concurrency(1);
    Guard inner = Guard.of("inner").qps(0);
    Supplier<String> both = outer.andThen(inner).on(engine).decorateWithCall(call -> "x");

    assertThatThrownBy(both::get).isInstanceOf(dev.guard.api.RefusedException.Flow.class);

    assertThat(engine.stats("outer").concurrency()).isZero();
  }

  @Test
  void recordFailure_null_isRejected() {
    Supplier<String> quote = Guard.of("pricing").on(engine).decorateWithCall(call -> {
      call.recordFailure(null);
      return "x";
    });

    assertThatThrownBy(quote::get).isInstanceOf(NullPointerException.class).hasMessage("cause");
  }
}
