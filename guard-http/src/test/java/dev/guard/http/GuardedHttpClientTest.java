package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.NodeStats;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The outbound decorator against a real local JDK HTTP server that fails on purpose: {@code /ok}
 * answers 200, {@code /fail} 500, {@code /drop} closes the connection without an answer, {@code
 * /hang} answers only when the test lets it.
 */
class GuardedHttpClientTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  private final AtomicInteger received = new AtomicInteger();
  private final CountDownLatch hangRelease = new CountDownLatch(1);
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private HttpServer server;
  private String host;
  private GuardedHttpClient client;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(handlers);
    server.createContext("/", this::handle);
    server.start();
    host = "http://127.0.0.1:" + server.getAddress().getPort();
    client = HttpOutbound.of(engine).decorate(
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
  }

  @AfterEach
  void stop() {
    hangRelease.countDown();
    server.stop(0);
    handlers.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    received.incrementAndGet();
    String path = exchange.getRequestURI().getPath();
    if (path.equals("/drop")) {
      exchange.close(); // no response: the server drops the connection
      return;
    }
    if (path.equals("/hang")) {
      TestApp.await(hangRelease);
    }
    byte[] body = "body".getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(path.equals("/fail") ? 500 : 200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private HttpRequest get(String path) {
    return HttpRequest.newBuilder(URI.create(host + path))
        .timeout(Duration.ofSeconds(TestApp.WAIT_SECONDS)).build();
  }

  private HttpRequest post(String path) {
    return HttpRequest.newBuilder(URI.create(host + path))
        .POST(HttpRequest.BodyPublishers.ofString("x"))
        .timeout(Duration.ofSeconds(TestApp.WAIT_SECONDS)).build();
  }

  private NodeStats hostStats() {
    return engine.stats(host);
  }

  @Test
  void send_entersOneOutboundResourcePerHost() throws Exception {
    assertThat(client.send(get("/ok"), BodyHandlers.ofString()).body()).isEqualTo("body");
    client.send(get("/orders/1"), BodyHandlers.ofString());

    assertThat(engine.resources()).containsExactly(host);
    assertThat(hostStats().totalPass()).isEqualTo(2);
    assertThat(hostStats().concurrency()).isZero();
    assertThat(engine.inboundStats().totalPass()).isZero();
  }

  @Test
  void send_isAnOutboundCall_thatSystemRulesNeverRefuse() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(SystemRule.of().withMaxInboundQps(1))));

    for (int i = 0; i < 3; i++) {
      assertThat(client.send(get("/ok"), BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }
    assertThat(hostStats().totalPass()).isEqualTo(3);
  }

  @Test
  void perPath_namesResourcesAfterMethodHostAndPathTemplate() throws Exception {
    GuardedHttpClient perPath = HttpOutbound.of(engine).perPath(PathCleaner.ids())
        .decorate(HttpClient.newHttpClient());

    perPath.send(get("/orders/1"), BodyHandlers.ofString());
    perPath.send(get("/orders/2"), BodyHandlers.ofString());

    assertThat(engine.stats("GET " + host + "/orders/{id}").totalPass()).isEqualTo(2);
  }

  @Test
  void send_serverError_isRecorded_andTheResponseReturned() throws Exception {
    HttpResponse<String> response = client.send(get("/fail"), BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(hostStats().totalException()).isEqualTo(1);
    assertThat(hostStats().concurrency()).isZero();
  }

  @Test
  void send_ioFailure_isRecorded_andPassedOnUnchanged() {
    assertThatThrownBy(() -> client.send(post("/drop"), BodyHandlers.ofString()))
        .isInstanceOf(IOException.class);

    assertThat(hostStats().totalException()).isEqualTo(1);
    assertThat(hostStats().successQps()).isEqualTo(1);
    assertThat(hostStats().concurrency()).isZero();
  }

  @Test
  void send_timeout_isRecorded() {
    HttpRequest hanging = HttpRequest.newBuilder(URI.create(host + "/hang"))
        .timeout(Duration.ofMillis(50)).build();

    assertThatThrownBy(() -> client.send(hanging, BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);
    assertThat(hostStats().totalException()).isEqualTo(1);
  }

  @Test
  void breaker_opensOnServerErrors_refusesWithoutSending_andRecoversAfterTheProbe()
      throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(host, List.of(CircuitBreakerRule.errorCount(host, 1).withMinCalls(2)
        .withOpenFor(Duration.ofSeconds(5)))));
    client.send(get("/fail"), BodyHandlers.ofString());
    client.send(get("/fail"), BodyHandlers.ofString());

    assertThatThrownBy(() -> client.send(get("/ok"), BodyHandlers.ofString()))
        .isInstanceOf(RefusedException.Breaker.class);
    assertThat(client.sendAsync(get("/ok"), BodyHandlers.ofString()))
        .isCompletedExceptionally();
    assertThat(received).hasValue(2);

    clock.advance(Duration.ofSeconds(5));
    assertThat(client.send(get("/ok"), BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    assertThat(engine.breakers(host).get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(received).hasValue(3);
  }

  @Test
  void send_refused_throwsBeforeAnyByteLeaves() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(host, List.of(FlowRule.qps(host, 1))));
    client.send(get("/ok"), BodyHandlers.ofString());

    assertThatThrownBy(() -> client.send(get("/ok"), BodyHandlers.ofString()))
        .isInstanceOf(RefusedException.Flow.class);
    assertThat(received).hasValue(1);
    assertThat(hostStats().totalRefused()).isEqualTo(1);
  }

  @Test
  void sendAsync_refused_givesAFailedFuture_andSendsNothing() throws Exception {
    engine.apply(engine.ruleSet().withRulesOf(host, List.of(FlowRule.qps(host, 0))));

    CompletableFuture<HttpResponse<String>> refused = client.sendAsync(get("/ok"), BodyHandlers.ofString());

    assertThat(refused).isCompletedExceptionally();
    assertThatThrownBy(refused::join).hasCauseInstanceOf(RefusedException.Flow.class);
    assertThat(received).hasValue(0);
  }

  @Test
  void sendAsync_serverError_isRecordedBeforeTheFutureCompletes() throws Exception {
    HttpResponse<String> response =
        client.sendAsync(get("/fail"), BodyHandlers.ofString()).get(TestApp.WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(hostStats().totalException()).isEqualTo(1);
    assertThat(hostStats().concurrency()).isZero();
  }

  @Test
  void sendAsync_ioFailure_failsTheFuture_andIsRecorded() {
    CompletableFuture<HttpResponse<String>> dropped = client.sendAsync(post("/drop"), BodyHandlers.ofString());

    assertThatThrownBy(() -> dropped.get(TestApp.WAIT_SECONDS, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IOException.class);
    assertThat(hostStats().totalException()).isEqualTo(1);
    assertThat(hostStats().concurrency()).isZero();
  }

  @Test
  void sendAsync_cancelled_exitsWithoutAnError() {
    CompletableFuture<HttpResponse<String>> hanging = client.sendAsync(get("/hang"), BodyHandlers.ofString());
    assertThat(hostStats().concurrency()).isEqualTo(1);

    hanging.cancel(true);

    assertThat(hostStats().concurrency()).isZero();
    assertThat(hostStats().successQps()).isEqualTo(1);
    assertThat(hostStats().totalException()).isZero();
  }

  @Test
  void sendAsync_cancelRacingTheResponse_givesThePlaceBackOnce() throws Exception {
    ExecutorService canceller = Executors.newSingleThreadExecutor();
    try {
      for (int i = 0; i < 100; i++) {
        CompletableFuture<HttpResponse<String>> sent =
            client.sendAsync(get("/ok"), BodyHandlers.ofString());
        canceller.submit(() -> sent.cancel(true)).get(TestApp.WAIT_SECONDS, TimeUnit.SECONDS);
        sent.handle((response, failure) -> response)
            .get(TestApp.WAIT_SECONDS, TimeUnit.SECONDS);

        assertThat(hostStats().concurrency()).as("try %d", i).isZero();
      }
    } finally {
      canceller.shutdownNow();
    }
  }
}
