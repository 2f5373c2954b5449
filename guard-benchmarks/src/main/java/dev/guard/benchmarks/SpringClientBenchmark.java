package dev.guard.benchmarks;

import dev.guard.engine.GuardEngine;
import dev.guard.http.HttpOutbound;
import dev.guard.http.OutboundGate;
import dev.guard.spring.client.GuardClientInterceptor;
import dev.guard.spring.client.GuardExchangeFilter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeStrategies;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * guard-spring-web-client's cost per request: one call of Spring's {@code RestClient} and {@code
 * WebClient}, each without an interceptor or filter, with one that only passes the call on (what
 * Spring's interceptor chain costs by itself) and with guard's (a resource without rules, named
 * per host), and the {@code OutboundGate} enter and finish alone. The clients answer from memory
 * (a canned 200 with a two-byte body), so guard's share of a call is the difference between the
 * pass-through and the guarded method, and no network time hides it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SpringClientBenchmark {

  static final String HOST = "http://bench.example";
  static final URI ORDER = URI.create(HOST + "/orders/1");
  private static final byte[] BODY = "ok".getBytes(StandardCharsets.UTF_8);
  private static final ExchangeStrategies STRATEGIES = ExchangeStrategies.withDefaults();

  /** The clients, all answering from memory; the guarded ones on one gate of one engine. */
  @State(Scope.Benchmark)
  public static class Clients {
    final GuardEngine engine = GuardEngine.builder().build();
    final OutboundGate gate = OutboundGate.of(HttpOutbound.of(engine));
    final RestClient rest = RestClient.builder().requestFactory(memory()).build();
    final RestClient guardedRest = RestClient.builder().requestFactory(memory())
        .requestInterceptor(GuardClientInterceptor.of(gate)).build();
    final RestClient passThroughRest = RestClient.builder().requestFactory(memory())
        .requestInterceptor((request, body, execution) -> execution.execute(request, body)).build();
    final WebClient web = WebClient.builder().exchangeFunction(request -> answer()).build();
    final WebClient passThroughWeb = WebClient.builder().exchangeFunction(request -> answer())
        .filter((request, next) -> next.exchange(request)).build();
    final WebClient guardedWeb = WebClient.builder().exchangeFunction(request -> answer())
        .filter(GuardExchangeFilter.of(gate)).build();

    /** Checks that every client answers and that the guarded ones enter the host's resource. */
    @Setup
    public void check() {
      Sanity.require("ok".equals(rest()) && "ok".equals(web()) && "ok".equals(passThroughRest())
          && "ok".equals(passThroughWeb()), "the plain clients do not answer");
      long before = engine.stats(HOST).totalPass();
      Sanity.require("ok".equals(guardedRest()) && "ok".equals(guardedWeb()),
          "the guarded clients do not answer");
      Sanity.require(engine.stats(HOST).totalPass() == before + 2,
          "the guarded clients do not enter the host's resource");
      Sanity.require(engine.stats(HOST).concurrency() == 0, "a guarded call did not exit");
    }

    private static ClientHttpRequestFactory memory() {
      return (uri, method) -> {
        MockClientHttpRequest request = new MockClientHttpRequest(method, uri);
        request.setResponse(new MockClientHttpResponse(BODY, HttpStatus.OK));
        return request;
      };
    }

    private static Mono<ClientResponse> answer() {
      return Mono.just(ClientResponse.create(HttpStatus.OK, STRATEGIES).body("ok").build());
    }

    @Nullable String rest() {
      return rest.get().uri(ORDER).retrieve().body(String.class);
    }

    @Nullable String guardedRest() {
      return guardedRest.get().uri(ORDER).retrieve().body(String.class);
    }

    @Nullable String passThroughRest() {
      return passThroughRest.get().uri(ORDER).retrieve().body(String.class);
    }

    @Nullable String passThroughWeb() {
      return passThroughWeb.get().uri(ORDER).retrieve().bodyToMono(String.class)
          .block(Duration.ofSeconds(1));
    }

    @Nullable String web() {
      return web.get().uri(ORDER).retrieve().bodyToMono(String.class).block(Duration.ofSeconds(1));
    }

    @Nullable String guardedWeb() {
      return guardedWeb.get().uri(ORDER).retrieve().bodyToMono(String.class)
          .block(Duration.ofSeconds(1));
    }

    boolean gate() {
      return gate.enter("GET", ORDER).finish(200);
    }
  }

  /** A {@code RestClient} GET without guard. */
  @Benchmark
  public @Nullable Object restClient(Clients clients) {
    return clients.rest();
  }

  /** The same GET through an interceptor that only passes the request on: Spring's share. */
  @Benchmark
  public @Nullable Object restClientPassThrough(Clients clients) {
    return clients.passThroughRest();
  }

  /** The same GET through {@code GuardClientInterceptor}. */
  @Benchmark
  public @Nullable Object restClientGuarded(Clients clients) {
    return clients.guardedRest();
  }

  /** A {@code WebClient} GET without guard, blocked on. */
  @Benchmark
  public @Nullable Object webClient(Clients clients) {
    return clients.web();
  }

  /** The same GET through a filter that only passes the exchange on: Spring's share. */
  @Benchmark
  public @Nullable Object webClientPassThrough(Clients clients) {
    return clients.passThroughWeb();
  }

  /** The same GET through {@code GuardExchangeFilter}. */
  @Benchmark
  public @Nullable Object webClientGuarded(Clients clients) {
    return clients.guardedWeb();
  }

  /** {@code OutboundGate.enter(method, uri).finish(200)} alone: naming, entering, exiting. */
  @Benchmark
  public boolean outboundGate(Clients clients) {
    return clients.gate();
  }
}
