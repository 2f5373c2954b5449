package dev.guard.spring.boot.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.webapps.Client;
import dev.guard.webapps.OrdersMvcApp;
import dev.guard.webapps.RunningApp;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Issue 38: guard's Spring MVC adapter costs a request no handler lookup of its own (the servlet
 * filter before it asked every handler mapping once more before the dispatcher did), and admits a
 * request once, in its first dispatch: the error page of a failed request is no second call.
 */
@SpringBootTest(classes = OrdersMvcApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class Issue38MvcInterceptorTest extends RunningApp {

  @Autowired OrdersMvcApp.CountingMapping mapping;

  @Test
  void guardedRequest_isLookedUpOnce_byTheDispatcher() throws Exception {
    long before = mapping.lookups();

    assertThat(client.get("/orders/1").statusCode()).isEqualTo(200);

    assertThat(mapping.lookups() - before).isEqualTo(1);
    assertThat(engine.stats("GET /orders/{id}").totalPass()).isEqualTo(1);
  }

  @Test
  void failedRequest_isOneCallWithItsError_andTheErrorPageNoCall() throws Exception {
    assertThat(client.get("/boom").statusCode()).isEqualTo(500);

    Client.awaitUntil(() -> engine.stats("GET /boom").concurrency() == 0);
    assertThat(engine.stats("GET /boom").totalPass()).isEqualTo(1);
    assertThat(engine.stats("GET /boom").totalException()).isEqualTo(1);
    assertThat(engine.resources()).noneMatch(name -> name.contains("/error"));
  }
}
