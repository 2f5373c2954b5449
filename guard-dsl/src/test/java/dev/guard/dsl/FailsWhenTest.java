package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Results judged by failsWhen count as failed calls for circuit breakers. */
class FailsWhenTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private static boolean isServerError(Object result) {
    return result instanceof Integer status && status >= 500;
  }

  @Test
  void failsWhen_errorCountBreaker_opensOnJudgedResults_andReturnsEachValue() {
    Supplier<Integer> fetch = Guard.of("catalog").errorCount(2).minCalls(1)
        .failsWhen(FailsWhenTest::isServerError).on(engine)
        .decorate(() -> 503);

    assertThat(fetch.get()).isEqualTo(503);
    assertThat(fetch.get()).isEqualTo(503);
    assertThat(engine.breakers("catalog").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(fetch.get()).isEqualTo(503);

    assertThat(engine.breakers("catalog").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThatThrownBy(fetch::get).isInstanceOf(RefusedException.Breaker.class);
  }

  @Test
  void failsWhen_errorRatioBreaker_countsJudgedResultsLikeThrownErrors() {
    int[] next = {200, 503, 503, 200, 503};
    int[] calls = {0};
    Supplier<Integer> fetch = Guard.of("catalog").errorRatio(0.5).minCalls(5)
        .failsWhen(FailsWhenTest::isServerError).on(engine)
        .decorate(() -> next[calls[0]++]);

    for (int i = 0; i < 4; i++) {
      fetch.get();
    }
    assertThat(engine.breakers("catalog").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(fetch.get()).isEqualTo(503); // 3 of 5 failed: more than half

    assertThat(engine.breakers("catalog").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(engine.stats("catalog").exceptionQps()).isEqualTo(3.0);
    assertThat(engine.stats("catalog").successQps()).isEqualTo(5.0);
  }

  @Test
  void failsWhen_acceptedResults_countAsSuccess() {
    Supplier<Integer> fetch = Guard.of("catalog").errorCount(0).minCalls(1)
        .failsWhen(FailsWhenTest::isServerError).on(engine)
        .decorate(() -> 200);

    fetch.get();
    fetch.get();

    assertThat(engine.stats("catalog").exceptionQps()).isZero();
    assertThat(engine.breakers("catalog").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void failsWhen_seesNullResults() {
    Supplier<String> lookup = Guard.of("lookup").errorCount(0).minCalls(1)
        .failsWhen(result -> result == null).on(engine)
        .decorate(() -> null);

    assertThat(lookup.get()).isNull();

    assertThat(engine.breakers("lookup").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void failsWhen_predicateThrows_countsTheResult_andStillReturnsIt() {
    Supplier<String> lookup = Guard.of("lookup").errorCount(0).minCalls(1)
        .failsWhen(result -> {
          throw new IllegalStateException("broken judge");
        }).on(engine)
        .decorate(() -> "value");

    assertThat(lookup.get()).isEqualTo("value");

    assertThat(engine.breakers("lookup").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void failsWhen_thrownExceptions_stillCountAsUsual() {
    IllegalStateException down = new IllegalStateException("down");
    Supplier<String> broken = Guard.of("r").errorCount(0).minCalls(1)
        .failsWhen(result -> false).on(engine)
        .decorate(() -> {
          throw down;
        });

    assertThatThrownBy(broken::get).isSameAs(down);

    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void failsWhen_everyDecoratorShape_judgesItsResult() throws Exception {
    Guard guard = Guard.of("r").errorCount(5).minCalls(1).failsWhen("bad"::equals).on(engine);

    assertThat(guard.decorateFunction(x -> "bad").apply("x")).isEqualTo("bad");
    assertThat(guard.decorateKeyedFunction(x -> x, x -> "bad").apply("x")).isEqualTo("bad");
    assertThat(guard.decorateBiFunction((x, y) -> "bad").apply("x", "y")).isEqualTo("bad");
    assertThat(guard.decorateCallable(() -> "bad").call()).isEqualTo("bad");
    assertThat(guard.call(() -> "bad")).isEqualTo("bad");
    assertThat(guard.callWithKey("k", () -> "bad")).isEqualTo("bad");

    assertThat(engine.stats("r").exceptionQps()).isEqualTo(6.0);
  }

  @Test
  void failsWhen_asynchronousResult_isJudgedWhenTheStageCompletes() {
    CompletableFuture<String> pending = new CompletableFuture<>();
    Supplier<CompletionStage<String>> async = Guard.of("r").errorCount(0).minCalls(1)
        .failsWhen("bad"::equals).on(engine)
        .decorateCompletionStage(() -> pending);

    CompletionStage<String> stage = async.get();
    pending.complete("bad");

    assertThat(stage.toCompletableFuture().join()).isEqualTo("bad");
    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void failsWhen_onOnePartOfAComposedGuard_countsOnlyForThatPart() {
    Guard outer = Guard.of("outer").errorCount(0).minCalls(1);
    Guard inner = Guard.of("inner").errorCount(0).minCalls(1).failsWhen("bad"::equals);
    Supplier<String> both = outer.andThen(inner).on(engine).decorate(() -> "bad");

    assertThat(both.get()).isEqualTo("bad");

    assertThat(engine.breakers("inner").get(0).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(engine.breakers("outer").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void failsWhen_withARefusalFallback_fallsBackWhenOpen() {
    Guard guard = Guard.of("r").errorCount(0).minCalls(1).openFor(Duration.ofSeconds(5))
        .failsWhen("bad"::equals).on(engine);
    Function<String, String> fallback = refused -> "fallback";

    assertThat(guard.callOrElse(() -> "bad", refused -> fallback.apply("x"))).isEqualTo("bad");
    assertThat(guard.callOrElse(() -> "bad", refused -> fallback.apply("x")))
        .isEqualTo("fallback");
    clock.advance(Duration.ofSeconds(5));
    assertThat(guard.callOrElse(() -> "good", refused -> "fallback")).isEqualTo("good");
    assertThat(engine.breakers("r").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void failsWhen_twice_isRejected_andTheGuardIsUnchanged() {
    Guard judged = Guard.of("r").failsWhen(result -> false);

    assertThatThrownBy(() -> judged.failsWhen(result -> true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("combine the conditions in one predicate");
    assertThat(judged).isEqualTo(judged.origin(""));
  }
}
