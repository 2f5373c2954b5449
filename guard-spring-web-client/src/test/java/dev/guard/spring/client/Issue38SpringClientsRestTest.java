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
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Issue 38: RestClient and RestTemplate through {@link GuardClientInterceptor}, against a real
 * server on loopback (one for the class).
 */
class Issue38SpringClientsRestTest {

  private static LoopbackServer server;

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  private String host;
  private RestClient client;
  private RestTemplate template;

  @BeforeAll
  static void start() throws IOException {
    server = new LoopbackServer();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @BeforeEach
  void clients() {
    host = server.base();
    GuardClientInterceptor guard = GuardClientInterceptor.of(OutboundGate.of(HttpOutbound.of(engine)));
    client = RestClient.builder().baseUrl(host)
        .requestFactory(new JdkClientHttpRequestFactory(
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()))
        .requestInterceptor(guard).build();
    template = new RestTemplate(new SimpleClientHttpRequestFactory());
    template.getInterceptors().add(guard);
    template.setErrorHandler(response -> false); // statuses are the test's to read
  }

  private NodeStats hostStats() {
    return engine.stats(host);
  }

  private int received() {
    return server.received.get();
  }

  @Test
  void admittedCalls_reachTheServer_asOutboundCallsOfTheHost() {
    int before = received();

    assertThat(client.get().uri("/orders/1").retrieve().body(String.class)).isEqualTo("ok");
    assertThat(template.getForObject(host + "/orders/2", String.class)).isEqualTo("ok");

    assertThat(received() - before).isEqualTo(2);
    assertThat(engine.resources()).containsExactly(host);
    assertThat(hostStats().totalPass()).isEqualTo(2);
    assertThat(hostStats().concurrency()).isZero();
    assertThat(engine.inboundStats().totalPass()).isZero();
  }

  @Test
  void refusedCalls_throwTheRefusalItself_andNeverReachTheServer() {
    engine.resource(host).declare(List.of(FlowRule.qps(host, 0)));
    int before = received();

    assertThatThrownBy(() -> client.get().uri("/orders/1").retrieve().body(String.class))
        .isInstanceOf(RefusedException.Flow.class);
    assertThatThrownBy(() -> template.getForObject(host + "/orders/1", String.class))
        .isInstanceOf(RefusedException.Flow.class);

    assertThat(received()).isEqualTo(before);
    assertThat(hostStats().totalRefused()).isEqualTo(2);
    assertThat(hostStats().concurrency()).isZero();
  }

  @Test
  void serverErrors_openTheBreaker_whichRefusesOnTheClientSide() {
    engine.resource(host).declare(List.of(CircuitBreakerRule.errorCount(host, 1).withMinCalls(2)
        .withOpenFor(Duration.ofSeconds(5))));
    ResponseEntity<Void> failed = client.get().uri("/fail/1").retrieve()
        .onStatus(HttpStatusCode::isError, (request, response) -> { })
        .toBodilessEntity();
    template.getForEntity(host + "/fail/2", String.class);
    int before = received();

    assertThat(failed.getStatusCode().value()).isEqualTo(500);
    assertThat(hostStats().totalException()).isEqualTo(2);
    assertThatThrownBy(() -> client.get().uri("/orders/1").retrieve().body(String.class))
        .isInstanceOf(RefusedException.Breaker.class);
    assertThatThrownBy(() -> template.getForObject(host + "/orders/1", String.class))
        .isInstanceOf(RefusedException.Breaker.class);
    assertThat(received()).isEqualTo(before);

    clock.advance(Duration.ofSeconds(5));
    assertThat(client.get().uri("/orders/1").retrieve().body(String.class)).isEqualTo("ok");
    assertThat(received()).isEqualTo(before + 1);
  }

  @Test
  void ioFailures_areRecorded_andPassedOnAsTheClientReportsThem() {
    assertThatThrownBy(() -> client.post().uri("/drop").body("x").retrieve().body(String.class))
        .isInstanceOf(ResourceAccessException.class).hasCauseInstanceOf(IOException.class);
    assertThatThrownBy(() -> template.postForObject(host + "/drop", "x", String.class))
        .isInstanceOf(ResourceAccessException.class).hasCauseInstanceOf(IOException.class);

    assertThat(hostStats().totalException()).isEqualTo(2);
    assertThat(hostStats().concurrency()).isZero();
  }

  @Test
  void perPath_namesResourcesAfterMethodHostAndPathTemplate() {
    Function<String, String> cleaner = HttpInbound.defaultPathCleaner();
    RestClient perPath = RestClient.builder().baseUrl(host)
        .requestFactory(new SimpleClientHttpRequestFactory())
        .requestInterceptor(GuardClientInterceptor.of(
            OutboundGate.of(HttpOutbound.of(engine).perPath(cleaner))))
        .build();

    perPath.get().uri("/orders/1").retrieve().toBodilessEntity();
    perPath.get().uri("/orders/2").retrieve().toBodilessEntity();
    perPath.delete().uri("/orders/3").retrieve().toBodilessEntity();

    assertThat(engine.stats("GET " + host + "/orders/{id}").totalPass()).isEqualTo(2);
    assertThat(engine.stats("DELETE " + host + "/orders/{id}").totalPass()).isEqualTo(1);
  }
}
