package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class GuardedMethodsTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class))
          .withPropertyValues(
              "guard.rules.flow[0].resource=quote", "guard.rules.flow[0].qps=1",
              "guard.rules.flow[1].resource=quoteAsync", "guard.rules.flow[1].concurrency=1",
              "guard.rules.flow[2].resource=quoteMono", "guard.rules.flow[2].qps=1",
              "guard.rules.flow[3].resource=quotes", "guard.rules.flow[3].qps=1",
              "guard.rules.flow[4].resource=strict", "guard.rules.flow[4].qps=1",
              "guard.rules.per-value[0].resource=cart", "guard.rules.per-value[0].argumentIndex=1",
              "guard.rules.per-value[0].threshold=1");

  @Test
  void a_refused_call_falls_back_and_a_failed_one_too() {
    runner.withUserConfiguration(App.class).run(context -> {
      Quotes quotes = context.getBean(Quotes.class);
      assertThat(quotes.quote("a")).isEqualTo("quote a");
      assertThat(quotes.quote("b")).isEqualTo("busy b (flow)");
      assertThat(quotes.quote("fail")).isEqualTo("busy fail (flow)");

      context.getBean(ManualClock.class).advance(Duration.ofSeconds(1));
      assertThat(quotes.quote("fail")).isEqualTo("failed fail: no such item");
      GuardEngine engine = context.getBean(GuardEngine.class);
      assertThat(engine.stats("quote").totalException()).isEqualTo(1);
      assertThat(engine.stats("quote").totalRefused()).isEqualTo(2);
    });
  }

  @Test
  void without_a_fallback_the_refusal_reaches_the_caller() {
    runner.withUserConfiguration(App.class).run(context -> {
      Quotes quotes = context.getBean(Quotes.class);
      assertThat(quotes.strict()).isEqualTo("ok");
      assertThatThrownBy(quotes::strict).isInstanceOf(RefusedException.Flow.class);
    });
  }

  @Test
  void a_completion_stage_is_one_call_until_it_completes() {
    runner.withUserConfiguration(App.class).run(context -> {
      Quotes quotes = context.getBean(Quotes.class);
      GuardEngine engine = context.getBean(GuardEngine.class);
      CompletableFuture<String> pending = new CompletableFuture<>();
      quotes.next(pending);
      CompletionStage<String> first = quotes.quoteAsync("a");
      // one slot, held until the stage completes
      assertThat(quotes.quoteAsync("b").toCompletableFuture().join()).isEqualTo("later b");
      pending.complete("done");
      assertThat(first.toCompletableFuture().join()).isEqualTo("done");

      quotes.next(CompletableFuture.failedFuture(new IllegalStateException("down")));
      assertThat(quotes.quoteAsync("c").toCompletableFuture().join()).isEqualTo("broken c: down");
      assertThat(engine.stats("quoteAsync").totalException()).isEqualTo(1);
    });
  }

  @Test
  void a_mono_is_one_call_per_subscription() {
    runner.withUserConfiguration(App.class).run(context -> {
      Quotes quotes = context.getBean(Quotes.class);
      Mono<String> mono = quotes.quoteMono("a");
      StepVerifier.create(mono).expectNext("mono a").verifyComplete();
      StepVerifier.create(mono).expectNext("mono busy a").verifyComplete();
      context.getBean(ManualClock.class).advance(Duration.ofSeconds(1));
      StepVerifier.create(quotes.quoteMono("fail")).expectNext("mono failed fail").verifyComplete();
    });
  }

  @Test
  void a_reactive_methods_arguments_reach_per_value_rules() {
    runner.withUserConfiguration(App.class).run(context -> {
      Quotes quotes = context.getBean(Quotes.class);
      StepVerifier.create(quotes.cart("acme", "u1")).expectNext("cart u1").verifyComplete();
      StepVerifier.create(quotes.cart("globex", "u1")).expectNext("cart busy u1").verifyComplete();
      StepVerifier.create(quotes.cart("acme", "u2")).expectNext("cart u2").verifyComplete();
    });
  }

  @Test
  void a_flux_is_one_call_per_subscription() {
    runner.withUserConfiguration(App.class).run(context -> {
      Quotes quotes = context.getBean(Quotes.class);
      StepVerifier.create(quotes.quotes()).expectNext("x", "y").verifyComplete();
      StepVerifier.create(quotes.quotes()).expectNext("cached").verifyComplete();
      assertThat(context.getBean(GuardEngine.class).stats("quotes").totalPass()).isEqualTo(1);
    });
  }

  @Test
  void a_missing_fallback_fails_the_start_up_naming_the_method() {
    runner.withUserConfiguration(Missing.class).run(context ->
        assertThat(context).hasFailed().getFailure().hasStackTraceContaining(
            "@Guarded(\"quote\") on MissingFallback.quote(String): onRefusal names 'nowhere', "
                + "but MissingFallback has no such method"));
  }

  @Test
  void a_fallback_of_another_type_fails_the_start_up_naming_the_method() {
    runner.withUserConfiguration(Mismatched.class).run(context ->
        assertThat(context).hasFailed().getFailure().hasStackTraceContaining(
            "@Guarded(\"quote\") on MismatchedFallback.quote(String): onRefusal 'busy' returns "
                + "java.lang.Integer, which does not fit the guarded method's java.lang.String"));
  }

  @Test
  void a_fallback_with_other_parameters_fails_the_start_up_naming_the_method() {
    runner.withUserConfiguration(WrongParameters.class).run(context ->
        assertThat(context).hasFailed().getFailure().hasStackTraceContaining(
            "@Guarded(\"quote\") on WrongParameterFallback.quote(String): onFailure names "
                + "'failed', but no method of that name takes the right parameters"));
  }

  @Configuration(proxyBeanMethods = false)
  static class App {
    @Bean
    ManualClock clock() {
      return new ManualClock();
    }

    @Bean
    Quotes quotes() {
      return new Quotes();
    }
  }

  static class Quotes {
    private volatile CompletionStage<String> next = CompletableFuture.completedFuture("done");

    /** What quoteAsync returns next (a method: fields of the proxy are not the bean's). */
    public void next(CompletionStage<String> stage) {
      next = stage;
    }

    @Guarded(value = "quote", onRefusal = "busy", onFailure = "failed")
    public String quote(String item) {
      if (item.equals("fail")) {
        throw new IllegalArgumentException("no such item");
      }
      return "quote " + item;
    }

    String busy(String item, RefusedException.Flow refused) {
      return "busy " + item + " (" + RefusedException.Kind.of(refused).tag() + ")";
    }

    String failed(String item, IllegalArgumentException failure) {
      return "failed " + item + ": " + failure.getMessage();
    }

    @Guarded("strict")
    public String strict() {
      return "ok";
    }

    @Guarded(value = "quoteAsync", onRefusal = "later", onFailure = "broken")
    public CompletionStage<String> quoteAsync(String item) {
      return next;
    }

    CompletionStage<String> later(String item) {
      return CompletableFuture.completedFuture("later " + item);
    }

    CompletionStage<String> broken(String item, IllegalStateException failure) {
      return CompletableFuture.completedFuture("broken " + item + ": " + failure.getMessage());
    }

    @Guarded(value = "quoteMono", onRefusal = "monoBusy", onFailure = "monoFailed")
    public Mono<String> quoteMono(String item) {
      return item.equals("fail")
          ? Mono.error(new IllegalArgumentException("no"))
          : Mono.fromSupplier(() -> "mono " + item);
    }

    Mono<String> monoBusy(String item, RefusedException refused) {
      return Mono.just("mono busy " + item);
    }

    Mono<String> monoFailed(String item, IllegalArgumentException failure) {
      return Mono.just("mono failed " + item);
    }

    @Guarded(value = "cart", onRefusal = "cartBusy")
    public Mono<String> cart(String tenant, String user) {
      return Mono.fromSupplier(() -> "cart " + user);
    }

    Mono<String> cartBusy(String tenant, String user, RefusedException refused) {
      return Mono.just("cart busy " + user);
    }

    @Guarded(value = "quotes", onRefusal = "cached")
    public Flux<String> quotes() {
      return Flux.just("x", "y");
    }

    Flux<String> cached() {
      return Flux.just("cached");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Missing {
    @Bean
    MissingFallback missing() {
      return new MissingFallback();
    }
  }

  static class MissingFallback {
    @Guarded(value = "quote", onRefusal = "nowhere")
    public String quote(String item) {
      return item;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Mismatched {
    @Bean
    MismatchedFallback mismatched() {
      return new MismatchedFallback();
    }
  }

  static class MismatchedFallback {
    @Guarded(value = "quote", onRefusal = "busy")
    public String quote(String item) {
      return item;
    }

    Integer busy(String item) {
      return 0;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class WrongParameters {
    @Bean
    WrongParameterFallback wrong() {
      return new WrongParameterFallback();
    }
  }

  static class WrongParameterFallback {
    @Guarded(value = "quote", onFailure = "failed")
    public String quote(String item) {
      return item;
    }

    String failed(int item, RuntimeException failure) {
      return "";
    }
  }
}
