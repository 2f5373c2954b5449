package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Which exceptions count as business errors, and recovering from failures and refusals. */
class ErrorTracingTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  /** A breaker that opens on the first counted error. */
  private Guard fragile(String resource) {
    return Guard.of(resource).errorCount(0).minCalls(1).on(engine);
  }

  private static <T> Supplier<T> throwing(RuntimeException failure) {
    return () -> {
      throw failure;
    };
  }

  @Test
  void ignoredException_passesThrough_countsAsSuccess_andLeavesTheBreakerClosed() {
    IllegalArgumentException invalid = new IllegalArgumentException("bad input");
    Supplier<String> guarded = fragile("r").ignoreExceptions(IllegalArgumentException.class)
        .decorate(throwing(invalid));

    assertThatThrownBy(guarded::get).isSameAs(invalid);

    assertThat(engine.stats("r").exceptionQps()).isZero();
    assertThat(engine.stats("r").successQps()).isEqualTo(1.0);
    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void ignoredSupertype_coversSubtypes_andWinsOverTheRecordedList() {
    Supplier<String> guarded = fragile("r")
        .recordExceptions(NumberFormatException.class)
        .ignoreExceptions(IllegalArgumentException.class)
        .decorate(throwing(new NumberFormatException("x")));

    assertThatThrownBy(guarded::get).isInstanceOf(NumberFormatException.class);

    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void everyDecoratorShape_honoursTheChoice() throws Exception {
    Guard guard = fragile("r").ignoreExceptions(IllegalArgumentException.class);
    IllegalArgumentException invalid = new IllegalArgumentException("bad input");

    assertThatThrownBy(() -> guard.decorateFunction(x -> {
      throw invalid;
    }).apply("x")).isSameAs(invalid);
    assertThatThrownBy(() -> guard.decorateBiFunction((x, y) -> {
      throw invalid;
    }).apply("x", "y")).isSameAs(invalid);
    assertThatThrownBy(() -> guard.decorateCallable(() -> {
      throw invalid;
    }).call()).isSameAs(invalid);
    assertThatThrownBy(() -> guard.run(() -> {
      throw invalid;
    })).isSameAs(invalid);

    assertThat(engine.stats("r").exceptionQps()).isZero();
    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void recordedTypes_onlyThoseCount() throws Exception {
    Guard guard = fragile("r").recordExceptions(IOException.class);
    Supplier<String> other = guard.decorate(throwing(new IllegalStateException("x")));
    Callable<String> io = guard.decorateCallable(() -> {
      throw new IOException("disk");
    });

    assertThatThrownBy(other::get).isInstanceOf(IllegalStateException.class);
    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThatThrownBy(io::call).isInstanceOf(IOException.class);
    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void predicate_decidesAlone() {
    Supplier<String> guarded = fragile("r")
        .ignoreExceptions(UncheckedIOException.class)
        .recordExceptionsIf(e -> e.getMessage().startsWith("5"))
        .decorate(throwing(new UncheckedIOException("503", new IOException())));
    Supplier<String> clientError = fragile("c")
        .recordExceptionsIf(e -> e.getMessage().startsWith("5"))
        .decorate(throwing(new IllegalStateException("404")));

    assertThatThrownBy(guarded::get).isInstanceOf(UncheckedIOException.class);
    assertThatThrownBy(clientError::get).isInstanceOf(IllegalStateException.class);

    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(engine.breakers("c").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void predicateThatThrows_countsTheException_whichStillPassesThrough() {
    IllegalStateException failure = new IllegalStateException("x");
    Supplier<String> guarded = fragile("r").recordExceptionsIf(e -> {
      throw new UnsupportedOperationException("predicate bug");
    }).decorate(throwing(failure));

    assertThatThrownBy(guarded::get).isSameAs(failure);
    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void tracingSteps_badArguments_areRejected() {
    assertThatThrownBy(() -> Guard.of("r").recordExceptions(IOException.class, null))
        .isInstanceOf(NullPointerException.class).hasMessage("recordExceptions[1]");
    assertThatThrownBy(() -> Guard.of("r").ignoreExceptions((Class<? extends Throwable>) null))
        .isInstanceOf(NullPointerException.class).hasMessage("ignoreExceptions[0]");
    assertThatThrownBy(() -> Guard.of("r").recordExceptionsIf(e -> true).recordExceptionsIf(e -> true))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already set");
  }

  @Test
  void asyncFailure_ofAnIgnoredType_doesNotCount() {
    Supplier<CompletionStage<String>> guarded = fragile("r")
        .ignoreExceptions(IllegalArgumentException.class)
        .decorateCompletionStage(() -> CompletableFuture.failedFuture(new IllegalArgumentException()));

    guarded.get().toCompletableFuture().handle((v, e) -> e).join();

    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(engine.stats("r").exceptionQps()).isZero();
  }

  @Test
  void decorateOrRecover_recoversFromTheFailure_thenFromTheOpenBreaker() {
    IllegalStateException down = new IllegalStateException("down");
    Supplier<String> guarded = fragile("inventory")
        .decorateOrRecover(throwing(down), failure -> "cached after " + failure.getClass().getSimpleName());

    assertThat(guarded.get()).isEqualTo("cached after IllegalStateException");
    assertThat(guarded.get()).isEqualTo("cached after Breaker");
    clock.advance(Duration.ofSeconds(10));
    assertThat(guarded.get()).as("the failed probe recovers too")
        .isEqualTo("cached after IllegalStateException");
  }

  @Test
  void decorateOrRecover_ignoredExceptionsAndErrors_propagate() {
    IllegalArgumentException invalid = new IllegalArgumentException("bad input");
    Supplier<String> ignored = fragile("r").ignoreExceptions(IllegalArgumentException.class)
        .decorateOrRecover(throwing(invalid), failure -> "recovered");
    Supplier<String> fatal = fragile("f").decorateOrRecover(() -> {
      throw new AssertionError("fatal");
    }, failure -> "recovered");

    assertThatThrownBy(ignored::get).isSameAs(invalid);
    assertThatThrownBy(fatal::get).isInstanceOf(AssertionError.class);
  }

  @Test
  void callOrRecover_receivesTheRefusalOfAFlowRuleToo() {
    Guard guard = Guard.of("r").qps(0).on(engine);

    Object seen = guard.callOrRecover(() -> "ok", failure -> failure);

    assertThat(seen).isInstanceOf(RefusedException.Flow.class);
    assertThat(fragile("s").callOrRecover(() -> "ok", failure -> "recovered")).isEqualTo("ok");
  }

  @Test
  void decorateOrElse_stillRecoversOnlyFromRefusals() {
    IllegalStateException down = new IllegalStateException("down");
    Supplier<String> guarded = fragile("r").decorateOrElse(throwing(down), refused -> "fallback");

    assertThatThrownBy(guarded::get).isSameAs(down);
    assertThat(guarded.get()).isEqualTo("fallback");
    assertThatThrownBy(() -> fragile("r").call(() -> "x")).isInstanceOf(RefusedException.Breaker.class);
  }
}
