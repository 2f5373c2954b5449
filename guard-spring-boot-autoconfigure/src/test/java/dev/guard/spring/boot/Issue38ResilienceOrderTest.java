package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testing.Await;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.resilience.InvocationRejectedException;
import org.springframework.resilience.annotation.ConcurrencyLimit;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;

/**
 * Issue 38: the order in which Spring Framework 7's {@code @ConcurrencyLimit} and {@code
 * @Retryable} and guard's {@code @Guarded} run on one method. By default guard is outermost
 * (guard, then the concurrency limit, then retry, then the method): one admission per call, a
 * refusal never retried, the limit's rejection an error of guard's call. {@code
 * guard.advice-order} below Spring's order puts guard innermost: every attempt is admitted.
 */
class Issue38ResilienceOrderTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class))
      .withUserConfiguration(App.class);

  @Test
  void byDefault_failedAttempts_areRetriedInsideOneAdmission() {
    runner.run(context -> {
      Pricing pricing = context.getBean(Pricing.class);
      GuardEngine engine = context.getBean(GuardEngine.class);

      assertThat(pricing.price(failing(2))).isEqualTo("price");

      assertThat(pricing.attempts()).isEqualTo(3);
      NodeStats stats = engine.stats(Pricing.RESOURCE);
      assertThat(stats.totalPass()).as("admissions").isEqualTo(1);
      assertThat(stats.totalException()).as("errors guard saw").isZero();
    });
  }

  @Test
  void byDefault_aRefusal_isNotRetried_andTheMethodNeverRuns() {
    runner.run(context -> {
      Pricing pricing = context.getBean(Pricing.class);
      GuardEngine engine = context.getBean(GuardEngine.class);
      engine.apply(RuleSet.of(List.of(FlowRule.qps(Pricing.RESOURCE, 0))));

      assertThatThrownBy(() -> pricing.price(failing(0)))
          .isInstanceOf(RefusedException.Flow.class);

      assertThat(pricing.attempts()).isZero();
      assertThat(engine.stats(Pricing.RESOURCE).totalRefused()).isEqualTo(1);
    });
  }

  @Test
  void byDefault_theConcurrencyLimit_rejectsInsideGuardsCall() throws Exception {
    runner.run(context -> {
      Pricing pricing = context.getBean(Pricing.class);
      GuardEngine engine = context.getBean(GuardEngine.class);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> call(pricing, () -> {
        release.await(10, TimeUnit.SECONDS);
        return "held";
      }));
      Await.until("the first call running in the method", Duration.ofSeconds(10),
          () -> pricing.attempts() == 1);

      assertThatThrownBy(() -> pricing.price(failing(0)))
          .isInstanceOf(InvocationRejectedException.class);
      release.countDown();
      assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("held");

      NodeStats stats = engine.stats(Pricing.RESOURCE);
      assertThat(stats.totalPass()).as("guard admitted the rejected call too").isEqualTo(2);
      assertThat(stats.totalException()).as("the rejection, an error of guard's call").isEqualTo(1);
    });
  }

  @Test
  void guardInnermost_everyAttemptIsAdmitted() {
    runner.withPropertyValues("guard.advice-order=0").run(context -> {
      Pricing pricing = context.getBean(Pricing.class);
      GuardEngine engine = context.getBean(GuardEngine.class);

      assertThat(pricing.price(failing(2))).isEqualTo("price");

      NodeStats stats = engine.stats(Pricing.RESOURCE);
      assertThat(stats.totalPass()).as("admissions").isEqualTo(3);
      assertThat(stats.totalException()).as("failed attempts").isEqualTo(2);
    });
  }

  @Test
  void guardInnermost_aRefusalIsRetried_unlessExcluded() {
    runner.withPropertyValues("guard.advice-order=0").run(context -> {
      Pricing pricing = context.getBean(Pricing.class);
      GuardEngine engine = context.getBean(GuardEngine.class);
      engine.apply(RuleSet.of(List.of(FlowRule.qps(Pricing.RESOURCE, 0),
          FlowRule.qps(Pricing.EXCLUDING, 0))));

      assertThatThrownBy(() -> pricing.price(failing(0)))
          .isInstanceOf(RefusedException.Flow.class);
      assertThatThrownBy(() -> pricing.priceExcludingRefusals(failing(0)))
          .isInstanceOf(RefusedException.Flow.class);

      assertThat(engine.stats(Pricing.RESOURCE).totalRefused()).as("1 + maxRetries")
          .isEqualTo(3);
      assertThat(engine.stats(Pricing.EXCLUDING).totalRefused()).isEqualTo(1);
      assertThat(pricing.attempts()).isZero();
    });
  }

  @Test
  void guardInnermost_theConcurrencyLimitRejectsBeforeGuard() throws Exception {
    runner.withPropertyValues("guard.advice-order=0").run(context -> {
      Pricing pricing = context.getBean(Pricing.class);
      GuardEngine engine = context.getBean(GuardEngine.class);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> call(pricing, () -> {
        release.await(10, TimeUnit.SECONDS);
        return "held";
      }));
      Await.until("the first call running in the method", Duration.ofSeconds(10),
          () -> pricing.attempts() == 1);

      assertThatThrownBy(() -> pricing.price(failing(0)))
          .isInstanceOf(InvocationRejectedException.class);
      release.countDown();
      assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo("held");

      assertThat(engine.stats(Pricing.RESOURCE).totalPass()).isEqualTo(1);
      assertThat(engine.stats(Pricing.RESOURCE).totalException()).isZero();
    });
  }

  /** A body that fails this many times (counted over the bean's calls), then answers. */
  private static Callable<String> failing(int failures) {
    AtomicInteger left = new AtomicInteger(failures);
    return () -> {
      if (left.getAndDecrement() > 0) {
        throw new IllegalStateException("pricing is down");
      }
      return "price";
    };
  }

  private static String call(Pricing pricing, Callable<String> body) {
    try {
      return pricing.price(body);
    } catch (Exception failed) {
      throw new IllegalStateException(failed);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableResilientMethods
  static class App {

    @Bean
    ManualClock clock() {
      return new ManualClock();
    }

    @Bean(destroyMethod = "close")
    GuardEngine guardEngine(ManualClock clock) {
      return GuardEngine.builder().clock(clock).build();
    }

    @Bean
    Pricing pricing() {
      return new Pricing();
    }
  }

  /** One method with all three annotations; no retry delay, one call at a time, no waiting. */
  static class Pricing {

    static final String RESOURCE = "price";
    static final String EXCLUDING = "price-excluding-refusals";

    private final AtomicInteger attempts = new AtomicInteger();

    /** The method's runs so far (read through the proxy, which has no state of its own). */
    public int attempts() {
      return attempts.get();
    }

    @Guarded(RESOURCE)
    @Retryable(maxRetries = 2, delay = 0)
    @ConcurrencyLimit(limit = 1, policy = ConcurrencyLimit.ThrottlePolicy.REJECT)
    public String price(Callable<String> body) throws Exception {
      attempts.incrementAndGet();
      return body.call();
    }

    @Guarded(EXCLUDING)
    @Retryable(maxRetries = 2, delay = 0, excludes = RefusedException.class)
    public String priceExcludingRefusals(Callable<String> body) throws Exception {
      attempts.incrementAndGet();
      return body.call();
    }
  }
}
