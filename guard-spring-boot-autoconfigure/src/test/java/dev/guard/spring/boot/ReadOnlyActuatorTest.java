package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * An application whose security lets everyone in, and that exposes the endpoint but grants nothing more: reads are
 * served, writes are not (the endpoint's default access is read-only), on a real Tomcat. Its engine
 * is its own bean: the starter's backs off, and the actuator shows the application's.
 */
@SpringBootTest(
    classes = ReadOnlyActuatorTest.Plain.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "management.endpoints.web.exposure.include=guard,health",
        "management.endpoint.health.show-details=always"
    })
class ReadOnlyActuatorTest {

  @Value("${local.server.port}")
  int port;

  @Autowired GuardEngine engine;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void reads_are_served_and_writes_are_not() throws Exception {
    assertThat(engine).isSameAs(Plain.ENGINE);
    HttpResponse<String> read = http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/guard")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    assertThat(read.body()).contains("\"inventory\"");

    HttpResponse<String> write = http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/guard/inventory"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"breaker\":\"open\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(write.statusCode()).isEqualTo(405);
    assertThat(engine.breakers("inventory").get(0).state().name()).isEqualTo("CLOSED");
  }

  @SpringBootApplication(proxyBeanMethods = false)
  static class Plain {
    static final GuardEngine ENGINE = GuardEngine.builder().clock(new ManualClock()).build();

    @Bean
    SecurityFilterChain everyoneIn(HttpSecurity http) throws Exception {
      return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
          .csrf(csrf -> csrf.disable())
          .build();
    }

    @Bean
    GuardEngine ownEngine() {
      ENGINE.apply(dev.guard.api.rule.RuleSet.of(
          List.of(CircuitBreakerRule.errorRatio("inventory", 0.5))));
      ENGINE.resource("inventory").call("x", String::length);
      return ENGINE;
    }
  }
}
