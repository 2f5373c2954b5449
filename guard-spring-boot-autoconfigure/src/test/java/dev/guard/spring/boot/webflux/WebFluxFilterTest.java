package dev.guard.spring.boot.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.webapps.Client;
import dev.guard.webapps.RunningApp;
import dev.guard.webapps.OrdersFluxApp;
import dev.guard.api.rule.RuleSet;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;

/**
 * The WebFlux filter with its defaults, in a real application on Reactor Netty, hit through
 * {@code WebTestClient} bound to the running server and through the JDK's HTTP client.
 */
@SpringBootTest(classes = OrdersFluxApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.main.web-application-type=reactive")
class WebFluxFilterTest extends RunningApp {

  static final String ORDERS = "GET /orders/{id}";


  @Test
  void twoIds_enterOneResource_200sThen429WithRetryAfter() {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(ORDERS, 2))));

    web.get().uri("/orders/1").exchange().expectStatus().isOk()
        .expectBody(String.class).isEqualTo("order 1");
    web.get().uri("/orders/2").exchange().expectStatus().isOk();
    web.get().uri("/orders/3").exchange()
        .expectStatus().isEqualTo(429)
        .expectHeader().valueEquals("Retry-After", "1")
        .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
        .expectHeader().doesNotExist("RateLimit")
        .expectBody(String.class).isEqualTo("{\"status\":429,\"error\":\"Too Many Requests\","
            + "\"protection\":\"flow\",\"resource\":\"GET /orders/{id}\"}");

    clock.advance(Duration.ofSeconds(1));
    web.get().uri("/orders/4").exchange().expectStatus().isOk();
    assertThat(engine.stats(ORDERS).totalPass()).isEqualTo(3);
    assertThat(engine.stats(ORDERS).totalRefused()).isEqualTo(1);
  }

  @Test
  void resource_isTheRoutePattern_forControllersAndRouterFunctions() throws Exception {
    assertThat(client.get("/users/alice").body()).isEqualTo("user alice");
    client.get("/users/bob");
    assertThat(client.get("/shelves/top").body()).isEqualTo("shelf top");
    client.get("/shelves/bottom");

    assertThat(engine.resources()).contains("GET /users/{name}", "GET /shelves/{shelf}")
        .doesNotContain("GET /users/alice", "GET /shelves/top");
    assertThat(engine.stats("GET /users/{name}").totalPass()).isEqualTo(2);
    assertThat(engine.stats("GET /shelves/{shelf}").totalPass()).isEqualTo(2);
  }

  @Test
  void handlerError_isRecorded_andTheEntryExits() throws Exception {
    HttpResponse<String> failed = client.get("/fail");

    assertThat(failed.statusCode()).isEqualTo(500);
    Client.awaitUntil(() -> engine.stats("GET /fail").concurrency() == 0);
    assertThat(engine.stats("GET /fail").totalException()).isEqualTo(1);
  }

  @Test
  void requestWithoutOwnRoute_isNamedByTheCatchAllRoute() {
    web.get().uri("/nothing/here/1").exchange().expectStatus().isNotFound();

    // Spring Boot maps static resources at /** in WebFlux: that is the route that served the 404
    assertThat(engine.resources()).contains("GET /**").doesNotContain("GET /nothing/here/1");
  }
}
