package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.RuleState;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@code timeout(..)} on asynchronous calls, on the manual clock: the deadline passes when the test
 * advances the clock, and the guard's deadline thread sees it within a bounded wait.
 */
class TimeoutTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private static Throwable failureOf(CompletionStage<?> stage) throws Exception {
    return stage.toCompletableFuture().handle((value, failure) -> failure).get(10, TimeUnit.SECONDS);
  }

  @Test
  void pendingStage_atTheDeadline_failsWithATimeout_andTheCallExits() throws Exception {
    CompletableFuture<String> never = new CompletableFuture<>();
    Supplier<CompletionStage<String>> guarded = Guard.of("pricing")
        .timeout(Duration.ofMillis(500)).on(engine).decorateCompletionStage(() -> never);

    CompletionStage<String> stage = guarded.get();
    clock.advanceMillis(499);
    assertThat(stage.toCompletableFuture()).isNotDone();
    assertThat(engine.stats("pricing").concurrency()).isEqualTo(1);
    clock.advanceMillis(1);

    assertThat(failureOf(stage)).isInstanceOf(TimeoutException.class)
        .hasMessageContaining("PT0.5S");
    assertThat(engine.stats("pricing").concurrency()).isZero();
    assertThat(engine.stats("pricing").totalException()).isEqualTo(1);
    assertThat(engine.stats("pricing").averageRt()).isEqualTo(500.0);
    never.complete("late");                         // ignored: the call has ended
    assertThat(engine.stats("pricing").totalException()).isEqualTo(1);
  }

  @Test
  void stageInTime_completesWithItsValue_andTheDeadlineDoesNothing() throws Exception {
    CompletableFuture<String> answer = new CompletableFuture<>();
    Supplier<CompletionStage<String>> guarded = Guard.of("pricing")
        .timeout(Duration.ofMillis(500)).on(engine).decorateCompletionStage(() -> answer);

    CompletionStage<String> stage = guarded.get();
    clock.advanceMillis(100);
    answer.complete("quote");
    assertThat(engine.stats("pricing").averageRt()).isEqualTo(100.0);
    clock.advanceMillis(1000);

    assertThat(stage.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("quote");
    assertThat(engine.metricsTotals("pricing").exception()).isZero();
    assertThat(engine.metricsTotals("pricing").success()).isEqualTo(1);
  }

  @Test
  void timedOutCalls_countAsFailedAndSlowForBreakers_evenWhenIgnoredExceptionsSaySo()
      throws Exception {
    Supplier<CompletionStage<String>> guarded = Guard.of("pricing")
        .slowCallRatio(0.5, Duration.ofMillis(200)).minCalls(2)
        .recordExceptions(IllegalStateException.class)
        .timeout(Duration.ofMillis(300))
        .on(engine).decorateCompletionStage(CompletableFuture::new);

    CompletionStage<String> first = guarded.get();
    CompletionStage<String> second = guarded.get();
    clock.advanceMillis(300);
    failureOf(first);
    failureOf(second);

    assertThat(engine.breakers("pricing")).singleElement()
        .satisfies(breaker -> assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN));
    assertThat(engine.stats("pricing").totalException()).isEqualTo(2);
  }

  @Test
  void adaptiveLimit_getsItsPlaceBackAtTheDeadline() throws Exception {
    Supplier<CompletionStage<String>> guarded = Guard.of("pricing")
        .adaptiveConcurrency().limits(1, 1, 10)
        .timeout(Duration.ofMillis(200))
        .on(engine).decorateCompletionStage(CompletableFuture::new);

    CompletionStage<String> hung = guarded.get();
    assertThat(failureOf(guarded.get())).isInstanceOf(
        dev.guard.api.RefusedException.AdaptiveConcurrency.class);
    clock.advanceMillis(200);
    failureOf(hung);

    assertThat(engine.ruleStates("pricing")).singleElement()
        .isInstanceOfSatisfying(RuleState.AdaptiveConcurrencyState.class,
            state -> assertThat(state.inFlight()).isZero());
  }

  @Test
  void synchronousUse_ofAGuardWithATimeout_isRefusedWithTheReason() {
    Guard guard = Guard.of("pricing").timeout(Duration.ofSeconds(1)).on(engine);

    assertThatThrownBy(() -> guard.decorate(() -> "x"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bounds asynchronous calls only");
    assertThatThrownBy(() -> guard.call(() -> "x")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void badTimeout_isRejectedNamingTheField() {
    assertThatThrownBy(() -> Guard.of("r").timeout(Duration.ZERO))
        .hasMessage("timeout must be positive, was PT0S");
    assertThatThrownBy(() -> Guard.of("r").timeout(Duration.ofDays(2)))
        .hasMessage("timeout must be at most PT24H, was PT48H");
  }
}
