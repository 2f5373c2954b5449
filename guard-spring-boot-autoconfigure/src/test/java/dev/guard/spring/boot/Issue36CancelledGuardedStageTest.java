package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A {@code @Guarded} method's stage that the caller cancels gives its place back at once, and a
 * cancel racing the method's own completion gives it back exactly once.
 */
class Issue36CancelledGuardedStageTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class))
      .withPropertyValues(
          "guard.rules.flow[0].resource=quoteAsync", "guard.rules.flow[0].concurrency=1")
      .withUserConfiguration(GuardedMethodsTest.App.class);

  @Test
  void cancelledStage_thenTheMethodsStageCompletes_holdsNoPlace() {
    runner.run(context -> {
      GuardedMethodsTest.Quotes quotes = context.getBean(GuardedMethodsTest.Quotes.class);
      GuardEngine engine = context.getBean(GuardEngine.class);
      CompletableFuture<String> pending = new CompletableFuture<>();
      quotes.next(pending);

      quotes.quoteAsync("a").toCompletableFuture().cancel(true);
      assertThat(engine.stats("quoteAsync").concurrency()).isZero();
      pending.complete("late");

      assertThat(engine.stats("quoteAsync").concurrency()).isZero();
      quotes.next(new CompletableFuture<>());
      quotes.quoteAsync("b");
      assertThat(quotes.quoteAsync("c").toCompletableFuture().join()).isEqualTo("later c");
    });
  }

  @Test
  void cancelRacingCompletion_givesThePlaceBackOnce() {
    ExecutorService racers = Executors.newFixedThreadPool(2);
    try {
      runner.run(context -> {
        GuardedMethodsTest.Quotes quotes = context.getBean(GuardedMethodsTest.Quotes.class);
        GuardEngine engine = context.getBean(GuardEngine.class);
        for (int i = 0; i < 200; i++) {
          CompletableFuture<String> pending = new CompletableFuture<>();
          quotes.next(pending);
          CompletionStage<String> stage = quotes.quoteAsync("a");
          CountDownLatch start = new CountDownLatch(1);
          Future<?> cancel = racers.submit(() -> {
            start.await();
            return stage.toCompletableFuture().cancel(true);
          });
          Future<?> complete = racers.submit(() -> {
            start.await();
            return pending.complete("done");
          });
          start.countDown();
          cancel.get(10, TimeUnit.SECONDS);
          complete.get(10, TimeUnit.SECONDS);
          assertThat(engine.stats("quoteAsync").concurrency()).as("try %d", i).isZero();
        }
      });
    } finally {
      racers.shutdownNow();
    }
  }
}
