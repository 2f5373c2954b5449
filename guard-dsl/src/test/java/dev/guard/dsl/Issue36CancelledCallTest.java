package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A caller that cancels (or otherwise completes) the stage a guard returned ends the call at that
 * moment, as a call without error; the supplier's stage completing later changes nothing.
 */
class Issue36CancelledCallTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  private static int admitted(Supplier<CompletionStage<String>> guarded, int calls) {
    int admitted = 0;
    for (int i = 0; i < calls; i++) {
      if (!guarded.get().toCompletableFuture().isCompletedExceptionally()) {
        admitted++;
      }
    }
    return admitted;
  }

  @Test
  void cancelledStages_thenTheSourceCompletes_holdNoPlace() {
    CompletableFuture<String> source = new CompletableFuture<>();
    Supplier<CompletionStage<String>> guarded =
        Guard.of("r").concurrency(1000).on(engine).decorateCompletionStage(() -> source);

    for (int i = 0; i < 1000; i++) {
      guarded.get().toCompletableFuture().cancel(true);
    }
    source.complete("late");

    assertThat(engine.stats("r").concurrency()).isZero();
    Supplier<CompletionStage<String>> pending = Guard.of("r").concurrency(1000).on(engine)
        .decorateCompletionStage(CompletableFuture::new);
    assertThat(admitted(pending, 5000)).isEqualTo(1000);
  }

  @Test
  void cancelledStages_underAnAdaptiveLimit_holdNoPlace() {
    CompletableFuture<String> source = new CompletableFuture<>();
    Supplier<CompletionStage<String>> guarded = Guard.of("r").adaptiveConcurrency()
        .limits(20, 1, 20).on(engine).decorateCompletionStage(() -> source);

    for (int i = 0; i < 100; i++) {
      guarded.get().toCompletableFuture().cancel(true);
    }

    assertThat(engine.stats("r").concurrency()).isZero();
    source.complete("late");
    assertThat(engine.stats("r").concurrency()).isZero();
  }

  @Test
  void cancel_endsTheCallAtOnce_withoutError_andItsResponseTimeSoFar() {
    CompletableFuture<String> source = new CompletableFuture<>();
    Supplier<CompletionStage<String>> guarded = Guard.of("r").concurrency(1).on(engine)
        .decorateCompletionStage(() -> source);

    CompletionStage<String> stage = guarded.get();
    clock.advanceMillis(40);
    stage.toCompletableFuture().cancel(true);
    assertThat(engine.stats("r").concurrency()).isZero();
    assertThat(engine.stats("r").averageRt()).isEqualTo(40.0);
    clock.advanceMillis(500);
    source.completeExceptionally(new IllegalStateException("late failure"));
    clock.advanceMillis(1000);

    assertThat(engine.metricsTotals("r").success()).isEqualTo(1);
    assertThat(engine.metricsTotals("r").exception()).isZero();
    assertThat(source).isCompletedExceptionally(); // guard never cancels the supplier's stage
  }

  @Test
  void callerFailsTheReturnedStage_asOrTimeoutDoes_endsTheCall() {
    CompletableFuture<String> never = new CompletableFuture<>();
    Supplier<CompletionStage<String>> guarded = Guard.of("r").concurrency(1).on(engine)
        .decorateCompletionStage(() -> never);

    guarded.get().toCompletableFuture().completeExceptionally(new TimeoutException("caller's"));

    assertThat(engine.stats("r").concurrency()).isZero();
    assertThat(admitted(guarded, 2)).isEqualTo(1);
  }

  @Test
  void cancelBeforeTheGuardsOwnDeadline_endsTheCallOnce() throws Exception {
    List<CompletableFuture<String>> sources = new ArrayList<>();
    Supplier<CompletionStage<String>> guarded = Guard.of("r").concurrency(10)
        .timeout(Duration.ofMillis(100)).on(engine).decorateCompletionStage(() -> {
          CompletableFuture<String> source = new CompletableFuture<>();
          sources.add(source);
          return source;
        });

    CompletableFuture<String> cancelled = guarded.get().toCompletableFuture();
    CompletableFuture<String> timedOut = guarded.get().toCompletableFuture();
    cancelled.cancel(true);
    clock.advanceMillis(100);

    assertThat(timedOut.handle((value, failure) -> failure).get(10, TimeUnit.SECONDS))
        .isInstanceOf(TimeoutException.class);
    sources.forEach(source -> source.complete("late"));
    clock.advanceMillis(1000);
    assertThat(engine.stats("r").concurrency()).isZero();
    assertThat(engine.metricsTotals("r").success()).isEqualTo(2);
    assertThat(engine.metricsTotals("r").exception()).isEqualTo(1);
  }
}
