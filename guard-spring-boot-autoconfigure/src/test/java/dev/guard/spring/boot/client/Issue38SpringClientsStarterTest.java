package dev.guard.spring.boot.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.http.OutboundGate;
import dev.guard.spring.boot.GuardAutoConfiguration;
import dev.guard.spring.client.GuardClientInterceptor;
import dev.guard.webapps.StoppedClockEngine;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Issue 38: the starter puts guard on the clients of Boot's {@code RestClient.Builder}, {@code
 * RestTemplateBuilder} and {@code WebClient.Builder} when {@code guard.web.client.enabled=true},
 * against a real server on loopback. One context holds all three clients' calls.
 */
class Issue38SpringClientsStarterTest {

  private static final Duration PATIENCE = Duration.ofSeconds(10);
  private static final AtomicInteger RECEIVED = new AtomicInteger();
  private static HttpServer server;
  private static String host;

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withUserConfiguration(StoppedClockEngine.class)
      // the JDK's client under both: no Netty event loops to start for one test
      .withPropertyValues("spring.http.clients.imperative.factory=jdk",
          "spring.http.clients.reactive.connector=jdk")
      .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
          GuardWebClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
          ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
          RestClientAutoConfiguration.class,
          RestTemplateAutoConfiguration.class, WebClientAutoConfiguration.class));

  @BeforeAll
  static void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      RECEIVED.incrementAndGet();
      byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    host = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterAll
  static void stop() {
    server.stop(0);
  }

  @Test
  void enabled_guardsTheClientsOfEveryBuilder_throughOneGate() {
    runner.withPropertyValues("guard.web.client.enabled=true",
        "guard.web.client.resource-naming=PATH").run(context -> {
          GuardEngine engine = context.getBean(GuardEngine.class);
          RestClient rest = context.getBean(RestClient.Builder.class).baseUrl(host).build();
          RestTemplate template = context.getBean(RestTemplateBuilder.class).rootUri(host).build();
          WebClient web = context.getBean(WebClient.Builder.class).baseUrl(host).build();

          assertThat(rest.get().uri("/orders/1").retrieve().body(String.class)).isEqualTo("ok");
          assertThat(template.getForObject("/orders/2", String.class)).isEqualTo("ok");
          assertThat(web.get().uri("/orders/3").retrieve().bodyToMono(String.class)
              .block(PATIENCE)).isEqualTo("ok");
          String resource = "GET " + host + "/orders/{id}";
          assertThat(engine.stats(resource).totalPass()).isEqualTo(3);
          assertThat(engine.stats(resource).concurrency()).isZero();
          assertThat(context).hasSingleBean(OutboundGate.class);

          engine.resource(resource).declare(List.of(FlowRule.qps(resource, 3)));
          int before = RECEIVED.get();
          assertThatThrownBy(() -> rest.get().uri("/orders/4").retrieve().body(String.class))
              .isInstanceOf(RefusedException.Flow.class);
          assertThatThrownBy(() -> template.getForObject("/orders/5", String.class))
              .isInstanceOf(RefusedException.Flow.class);
          assertThatThrownBy(() -> web.get().uri("/orders/6").retrieve()
              .bodyToMono(String.class).block(PATIENCE))
              .isInstanceOf(RefusedException.Flow.class);
          assertThat(RECEIVED.get()).isEqualTo(before);
          assertThat(engine.stats(resource).totalRefused()).isEqualTo(3);
        });
  }

  @Test
  void notEnabled_leavesTheBuildersAlone() {
    runner.run(context -> {
      assertThat(context).doesNotHaveBean(OutboundGate.class);
      assertThat(context).doesNotHaveBean("guardRestClientCustomizer");
      assertThat(context).doesNotHaveBean("guardWebClientCustomizer");
    });
  }

  @Test
  void enabled_withoutTheClientModule_startsWithoutGuardingClients() {
    runner.withPropertyValues("guard.web.client.enabled=true")
        .withClassLoader(new FilteredClassLoader(GuardClientInterceptor.class))
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(OutboundGate.class);
        });
  }

  @Test
  void notEnabled_aComponentScanOverGuardsPackage_findsNothingToRegister() {
    runner.withUserConfiguration(ScansGuardsPackage.class).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).doesNotHaveBean("guardRestClientCustomizer");
    });
  }

  /** An application whose component scan covers guard's package, as a shop in dev.guard would. */
  @Configuration(proxyBeanMethods = false)
  @ComponentScan(basePackageClasses = GuardWebClientAutoConfiguration.class)
  static class ScansGuardsPackage {}

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "guard.web.client.resource-naming=url | guard.web.client.resource-naming: must be host or path, was 'url'",
      "guard.web.client.max-resources=0 | guard.web.client.max-resources: must be > 0, was 0",
      "guard.web.client.max-resources=many | guard.web.client.max-resources",
  })
  void badValue_failsTheStartUp_namingTheProperty(String property, String message) {
    runner.withPropertyValues("guard.web.client.enabled=true", property).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
    });
  }
}
