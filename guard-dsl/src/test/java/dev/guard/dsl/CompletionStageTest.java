package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class CompletionStageTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void decorateCompletionStage_pendingStage_holdsItsSlotUntilItCompletes() {
    CompletableFuture<String> pending = new CompletableFuture<>();
    Supplier<CompletionStage<String>> guarded =
        Guard.of("async").concurrency(1).on(engine).decorateCompletionStage(() -> pending);

    CompletionStage<String> first = guarded.get();
    CompletionStage<String> second = guarded.get();

    assertThat(engine.stats("async").concurrency()).isEqualTo(1);
    assertThat(second.toCompletableFuture()).isCompletedExceptionally();
    assertThat(second.toCompletableFuture().handle((v, e) -> e).join())
        .isInstanceOf(RefusedException.Flow.class);
    clock.advanceMillis(30);
    pending.complete("done");
    assertThat(first.toCompletableFuture().join()).isEqualTo("done");
    assertThat(engine.stats("async").concurrency()).isZero();
    assertThat(engine.stats("async").averageRt()).isEqualTo(30.0);
  }

  @Test
  void decorateCompletionStage_failedStage_countsAsBusinessError() {
    IllegalStateException failure = new IllegalStateException("remote down");
    Supplier<CompletionStage<String>> guarded = Guard.of("async").on(engine)
        .decorateCompletionStage(() -> CompletableFuture.failedFuture(failure));

    Throwable seen = guarded.get().toCompletableFuture().handle((v, e) -> e).join();

    assertThat(seen).isSameAs(failure);
    assertThat(engine.stats("async").totalException()).isEqualTo(1);
    assertThat(engine.stats("async").concurrency()).isZero();
  }

  @Test
  void decorateCompletionStage_supplierThrows_givesAFailedStageAndReleasesTheSlot() {
    IllegalArgumentException failure = new IllegalArgumentException("bad request");
    Supplier<CompletionStage<String>> guarded = Guard.of("async").on(engine)
        .decorateCompletionStage(() -> {
          throw failure;
        });

    Throwable seen = guarded.get().toCompletableFuture().handle((v, e) -> e).join();

    assertThat(seen).isSameAs(failure);
    assertThat(engine.stats("async").concurrency()).isZero();
    assertThat(engine.stats("async").totalException()).isEqualTo(1);
  }

  @Test
  void decorateCompletionStage_completedOnAnotherThread_leavesTheCallerFree() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      AtomicInteger ran = new AtomicInteger();
      Supplier<CompletionStage<Integer>> guarded = Guard.of("async").on(engine)
          .decorateCompletionStage(() -> CompletableFuture.supplyAsync(ran::incrementAndGet, pool));
      Supplier<String> sync = Guard.of("sync").on(engine).decorate(() -> "ok");

      CompletionStage<Integer> stage = guarded.get();
      assertThat(sync.get()).as("the caller's own entries are unaffected").isEqualTo("ok");

      assertThat(stage.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo(1);
      assertThat(engine.stats("async").concurrency()).isZero();
      assertThat(engine.stats("sync").concurrency()).isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void decorateCompletionStage_composedGuard_refusalBySecondReleasesFirst() {
    Guard both = Guard.of("outer").andThen(Guard.of("inner").qps(0)).on(engine);

    CompletionStage<String> stage = both.decorateCompletionStage(
        () -> CompletableFuture.completedFuture("never")).get();

    assertThat(stage.toCompletableFuture()).isCompletedExceptionally();
    assertThat(engine.stats("outer").concurrency()).isZero();
    assertThat(engine.stats("outer").totalPass()).isEqualTo(1);
  }
}
