package dev.guard.spring.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.http.HttpInbound;
import dev.guard.http.HttpOutbound;
import dev.guard.http.OutboundGate;
import dev.guard.testing.Await;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import reactor.test.util.RaceTestUtils;

/**
 * Issue 38: WebClient through {@link GuardExchangeFilter}, against a real server on loopback (one
 * for the class), and its exchange cancelled at every point: before the response, racing it, after
 * it, and by {@code timeout()}, each giving its place back exactly once.
 */
class Issue38SpringClientsWebClientTest {

  private static final Duration PATIENCE = Duration.ofSeconds(10);
  private static LoopbackServer server;

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  private final GuardExchangeFilter guard =
      GuardExchangeFilter.of(OutboundGate.of(HttpOutbound.of(engine)));
  private String host;
  private WebClient client;

  @BeforeAll
  static void start() throws IOException {
    server = new LoopbackServer();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @BeforeEach
  void client() {
    host = server.base();
    client = WebClient.builder().baseUrl(host).filter(guard).build();
  }

  private NodeStats hostStats() {
    return engine.stats(host);
  }

  private Mono<String> get(String path) {
    return client.get().uri(path).retrieve().bodyToMono(String.class);
  }

  /** Every admitted call exited once: nothing in flight, exits (per second, the clock stands) equal admissions. */
  private void assertEveryPlaceGivenBack(NodeStats stats) {
    assertThat(stats.concurrency()).as("in flight").isZero();
    assertThat(stats.successQps()).as("exits").isEqualTo(stats.totalPass());
  }

  @Test
  void admittedExchanges_reachTheServer_asOutboundCallsOfTheHost() {
    int before = server.received.get();

    assertThat(get("/orders/1").block(PATIENCE)).isEqualTo("ok");

    assertThat(server.received.get() - before).isEqualTo(1);
    assertThat(engine.resources()).containsExactly(host);
    assertThat(hostStats().totalPass()).isEqualTo(1);
    assertEveryPlaceGivenBack(hostStats());
  }

  @Test
  void refusedExchange_failsWithTheRefusalItself_atSubscription_andSendsNothing() {
    engine.resource(host).declare(List.of(FlowRule.qps(host, 0)));
    int before = server.received.get();
    Mono<String> refused = get("/orders/1");

    assertThat(hostStats().totalRefused()).as("nothing happens before subscription").isZero();
    assertThatThrownBy(() -> refused.block(PATIENCE)).isInstanceOf(RefusedException.Flow.class);
    assertThat(server.received.get()).isEqualTo(before);
    assertThat(hostStats().totalRefused()).isEqualTo(1);
    assertThat(hostStats().concurrency()).isZero();
  }

  @Test
  void serverErrors_openTheBreaker_whichRefusesOnTheClientSide() {
    engine.resource(host).declare(List.of(CircuitBreakerRule.errorCount(host, 1).withMinCalls(2)
        .withOpenFor(Duration.ofSeconds(5))));
    for (int i = 0; i < 2; i++) {
      assertThat(client.get().uri("/fail/" + i).exchangeToMono(r -> Mono.just(r.statusCode().value()))
          .block(PATIENCE)).isEqualTo(500);
    }
    int before = server.received.get();

    assertThat(hostStats().totalException()).isEqualTo(2);
    assertThatThrownBy(() -> get("/orders/1").block(PATIENCE))
        .isInstanceOf(RefusedException.Breaker.class);
    assertThat(server.received.get()).isEqualTo(before);
    clock.advance(Duration.ofSeconds(5));
    assertThat(get("/orders/1").block(PATIENCE)).isEqualTo("ok");
  }

  @Test
  void connectionDropped_isRecorded_andPassedOn() {
    assertThatThrownBy(() -> client.post().uri("/drop").bodyValue("x").retrieve()
        .bodyToMono(String.class).block(PATIENCE))
        .isInstanceOf(WebClientRequestException.class);

    assertThat(hostStats().totalException()).isEqualTo(1);
    assertEveryPlaceGivenBack(hostStats());
  }

  @Test
  void perPath_namesResourcesAfterMethodHostAndPathTemplate() {
    WebClient perPath = WebClient.builder().baseUrl(host).filter(GuardExchangeFilter.of(
        OutboundGate.of(HttpOutbound.of(engine).perPath(HttpInbound.defaultPathCleaner())))).build();

    perPath.get().uri("/orders/1").retrieve().toBodilessEntity().block(PATIENCE);
    perPath.put().uri("/orders/2").retrieve().toBodilessEntity().block(PATIENCE);

    assertThat(engine.stats("GET " + host + "/orders/{id}").totalPass()).isEqualTo(1);
    assertThat(engine.stats("PUT " + host + "/orders/{id}").totalPass()).isEqualTo(1);
  }

  @Test
  void cancelBeforeTheResponse_givesThePlaceBack_withoutAnError() {
    Disposable hanging = get("/hang").subscribe(body -> { }, failure -> { });
    Await.until("the hanging exchange is in flight", PATIENCE,
        () -> hostStats().concurrency() == 1);

    hanging.dispose();

    assertThat(hostStats().totalException()).isZero();
    assertEveryPlaceGivenBack(hostStats());
  }

  @Test
  void cancelRacingTheRealResponse_givesEachPlaceBackOnce() {
    for (int i = 0; i < 50; i++) {
      Disposable exchange = get("/orders/" + i).subscribe(body -> { }, failure -> { });
      RaceTestUtils.race(exchange::dispose, () -> { });
    }
    Await.until("every raced exchange has exited", PATIENCE,
        () -> hostStats().concurrency() == 0);

    assertThat(hostStats().totalPass()).isEqualTo(50);
    assertEveryPlaceGivenBack(hostStats());
  }

  // The exchange below is in memory, so that the response and the cancellation can be raced
  // exactly: the sink stands for the connector's answer.

  private final ClientRequest request =
      ClientRequest.create(HttpMethod.GET, URI.create("http://in-memory.test/orders/1")).build();

  private NodeStats memoryStats() {
    return engine.stats("http://in-memory.test");
  }

  @Test
  void responseRacingCancellation_exitsEachCallExactlyOnce() {
    int tries = 1_000;
    for (int i = 0; i < tries; i++) {
      Sinks.One<ClientResponse> answer = Sinks.one();
      Disposable exchange = guard.filter(request, sent -> answer.asMono()).subscribe();
      ClientResponse response = ClientResponse.create(HttpStatus.BAD_GATEWAY).build();

      RaceTestUtils.race(() -> answer.tryEmitValue(response), exchange::dispose);
    }

    assertThat(memoryStats().totalPass()).isEqualTo(tries);
    assertEveryPlaceGivenBack(memoryStats());
    assertThat(memoryStats().totalException()).as("502s that won their race")
        .isBetween(0L, (long) tries);
  }

  @Test
  void cancelAfterTheResponse_changesNothing() {
    Sinks.One<ClientResponse> answer = Sinks.one();
    StepVerifier.create(guard.filter(request, sent -> answer.asMono()))
        .then(() -> answer.tryEmitValue(ClientResponse.create(HttpStatus.INTERNAL_SERVER_ERROR).build()))
        .expectNextCount(1)
        .thenCancel()
        .verify(PATIENCE);

    assertThat(memoryStats().totalException()).isEqualTo(1);
    assertEveryPlaceGivenBack(memoryStats());
  }

  @Test
  void timeoutBeforeTheResponse_givesThePlaceBack_withoutAnError() {
    StepVerifier.withVirtualTime(() -> guard.filter(request, sent -> Mono.never())
            .timeout(Duration.ofSeconds(30)))
        .expectSubscription()
        .then(() -> assertThat(memoryStats().concurrency()).isEqualTo(1))
        .thenAwait(Duration.ofSeconds(30))
        .expectError(TimeoutException.class)
        .verify(PATIENCE);

    assertThat(memoryStats().totalException()).isZero();
    assertEveryPlaceGivenBack(memoryStats());
  }

  @Test
  void eachSubscription_isACallOfItsOwn() {
    Mono<ClientResponse> exchange = guard.filter(request,
        sent -> Mono.just(ClientResponse.create(HttpStatus.OK).build()));

    exchange.repeat(2).blockLast(PATIENCE);

    assertThat(memoryStats().totalPass()).isEqualTo(3);
    assertEveryPlaceGivenBack(memoryStats());
  }
}
