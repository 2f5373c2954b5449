package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.AdaptiveConcurrencyGuard;
import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class AdaptiveConcurrencyDslTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void adaptiveConcurrency_addsTheRuleWithItsDefaults_andReturnsItsStage() {
    AdaptiveConcurrencyGuard guard = Guard.of("inventory").adaptiveConcurrency();

    assertThat(guard.rules()).containsExactly(AdaptiveConcurrencyRule.of("inventory"));
  }

  @Test
  void stage_everySetting_shapesTheSameRule() {
    Guard guard = Guard.of("inventory").qps(100)
        .adaptiveConcurrency().limits(10, 2, 200).aimd().slowerThan(Duration.ofMillis(250))
        .window(Duration.ofMillis(50));

    assertThat(guard.rules()).endsWith(AdaptiveConcurrencyRule.of("inventory")
        .withLimits(10, 2, 200)
        .withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD)
        .withSlowerThan(Duration.ofMillis(250))
        .withWindow(Duration.ofMillis(50)));
    assertThat(Guard.of("r").adaptiveConcurrency().aimd().gradient().rules())
        .containsExactly(AdaptiveConcurrencyRule.of("r"));
  }

  @Test
  void badSettings_areRejectedNamingTheField() {
    assertThatThrownBy(() -> Guard.of("r").adaptiveConcurrency().limits(1, 2, 3))
        .hasMessageContaining("initialLimit");
    assertThatThrownBy(() -> Guard.of("r").adaptiveConcurrency().window(Duration.ZERO))
        .hasMessageContaining("window");
    assertThatThrownBy(() -> Guard.of("r").adaptiveConcurrency().qps(5).adaptiveConcurrency())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("at most one");
  }

  @Test
  void decorateCompletionStage_pendingStagesHoldTheirPlace_aRefusalCarriesTheLimit() {
    CompletableFuture<String> pending = new CompletableFuture<>();
    Supplier<CompletionStage<String>> guarded = Guard.of("async")
        .adaptiveConcurrency().limits(2, 1, 10)
        .on(engine).decorateCompletionStage(() -> pending);

    guarded.get();
    guarded.get();
    Throwable third = guarded.get().toCompletableFuture().handle((v, e) -> e).join();

    assertThat(third).isInstanceOfSatisfying(RefusedException.AdaptiveConcurrency.class,
        refused -> assertThat(refused.limit()).isEqualTo(2));
    pending.complete("done");
    assertThat(engine.stats("async").concurrency()).isZero();
    assertThat(guarded.get().toCompletableFuture().join()).isEqualTo("done");
  }

  @Test
  void shares_keepAnActiveOriginsPart_andLendAnIdleOne() {
    Guard limited = Guard.of("search").adaptiveConcurrency().limits(10, 10, 10)
        .share("live", 0.8).share("batch", 0.2);
    assertThat(limited.rules()).containsExactly(AdaptiveConcurrencyRule.of("search")
        .withLimits(10, 10, 10).withShare("live", 0.8).withShare("batch", 0.2));
    Supplier<CompletionStage<String>> live =
        limited.origin("live").on(engine).decorateCompletionStage(CompletableFuture::new);
    Supplier<CompletionStage<String>> batch =
        limited.origin("batch").on(engine).decorateCompletionStage(CompletableFuture::new);

    live.get();                                   // live is active: its 7 unused places are kept
    long batchAdmitted = java.util.stream.IntStream.range(0, 10)
        .mapToObj(i -> batch.get().toCompletableFuture())
        .filter(stage -> !stage.isCompletedExceptionally()).count();

    assertThat(batchAdmitted).isEqualTo(2);
    assertThat(engine.stats("search").concurrency()).isEqualTo(3);
    assertThatThrownBy(() -> Guard.of("r").adaptiveConcurrency().share("a", 0.6).share("b", 0.6))
        .hasMessageStartingWith("shares must sum to at most 1");
  }
}
