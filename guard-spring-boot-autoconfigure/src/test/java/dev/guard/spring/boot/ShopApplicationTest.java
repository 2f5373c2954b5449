package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A shop on a real Tomcat with Spring Security, its rules in YAML, hit with the JDK's HTTP client:
 * guarded methods refused and falling back, the actuator's reads and writes with and without
 * credentials, health, metrics and the dashboard behind the application's security.
 */
@SpringBootTest(
    classes = ShopApplicationTest.Shop.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "spring.config.name=shop")
class ShopApplicationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ADMIN =
      "Basic " + Base64.getEncoder().encodeToString("admin:admin-password".getBytes(StandardCharsets.UTF_8));

  @Value("${local.server.port}")
  int port;

  @Autowired GuardEngine engine;
  @Autowired ManualClock clock;
  @Autowired MeterRegistry meters;

  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void nextSecond() {
    clock.advance(Duration.ofSeconds(5)); // a fresh window: earlier tests' calls are history
  }

  @Test
  void guarded_methods_are_refused_and_fall_back_over_http() throws Exception {
    assertThat(get("/quote/a", null).body()).isEqualTo("quote a");
    assertThat(get("/quote/b", null).body()).isEqualTo("quote b");
    HttpResponse<String> third = get("/quote/c", null);
    assertThat(third.statusCode()).isEqualTo(200);
    assertThat(third.body()).isEqualTo("no quote for c now (flow)");
  }

  @Test
  void the_rules_of_the_yaml_file_are_in_force() {
    assertThat(engine.rules("quote")).containsExactly(FlowRule.qps("quote", 2));
    assertThat(engine.rules("checkout")).singleElement()
        .satisfies(rule -> assertThat(((FlowRule) rule).warmUp()).isNotNull());
    assertThat(engine.breakers("payments")).hasSize(1);
  }

  @Test
  void the_endpoint_needs_credentials() throws Exception {
    assertThat(get("/actuator/guard", null).statusCode()).isEqualTo(401);
    assertThat(post("/actuator/guard/payments", "{\"breaker\":\"open\"}", null).statusCode())
        .isEqualTo(401);
    assertThat(engine.breakers("payments").get(0).state().name()).isNotEqualTo("FORCED_OPEN");
  }

  @Test
  void the_endpoint_shows_resources_rules_breakers_and_history() throws Exception {
    get("/quote/x", null);
    HttpResponse<String> response = get("/actuator/guard", ADMIN);
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode view = JSON.readTree(response.body());
    assertThat(view.at("/resources/quote/totalPassed").asLong()).isPositive();
    assertThat(view.at("/rules/flow").findValuesAsString("resource")).contains("quote", "checkout");
    assertThat(view.at("/source").asString()).isEqualTo("spring:guard.rules");
    assertThat(view.at("/history/0/source").asString()).isEqualTo("spring:guard.rules");

    JsonNode payments = JSON.readTree(get("/actuator/guard/payments", ADMIN).body());
    assertThat(payments.at("/breakers/0/state").asString()).isEqualTo("closed");
  }

  @Test
  void writes_force_breakers_and_apply_and_roll_back_rules() throws Exception {
    HttpResponse<String> forced = post("/actuator/guard/payments", "{\"breaker\":\"open\"}", ADMIN);
    assertThat(forced.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(forced.body()).at("/breakers/0/state").asString())
        .isEqualTo("forced-open");
    assertThat(get("/pay", null).body()).isEqualTo("payments are paused (circuit-breaker)");

    JsonNode health = JSON.readTree(get("/actuator/health", null).body());
    assertThat(health.at("/components/guard/status").asString()).isEqualTo("DEGRADED");
    assertThat(health.at("/components/guard/details/open/0/resource").asString())
        .isEqualTo("payments");

    post("/actuator/guard/payments", "{\"breaker\":\"reset\"}", ADMIN);
    assertThat(get("/pay", null).body()).isEqualTo("paid");
    assertThat(JSON.readTree(get("/actuator/health", null).body())
        .at("/components/guard/status").asString()).isEqualTo("UP");

    long before = engine.ruleHistory().get(engine.ruleHistory().size() - 1).number();
    HttpResponse<String> applied = post("/actuator/guard",
        "{\"action\":\"apply\",\"rules\":\"{\\\"version\\\":1,\\\"flow\\\":[{\\\"resource\\\":\\\"quote\\\",\\\"qps\\\":9}]}\"}",
        ADMIN);
    assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
    assertThat(engine.rules("quote")).containsExactly(FlowRule.qps("quote", 9));

    HttpResponse<String> invalid = post("/actuator/guard",
        "{\"action\":\"apply\",\"rules\":\"{\\\"version\\\":1,\\\"flow\\\":[{\\\"resource\\\":\\\"quote\\\",\\\"qps\\\":-5}]}\"}",
        ADMIN);
    assertThat(JSON.readTree(invalid.body()).at("/errors/0").asString())
        .isEqualTo("rules.flow[0].qps: must be finite and >= 0, was -5");
    assertThat(engine.rules("quote")).containsExactly(FlowRule.qps("quote", 9));

    post("/actuator/guard", "{\"action\":\"rollBack\",\"revision\":" + before + "}", ADMIN);
    assertThat(engine.rules("quote")).containsExactly(FlowRule.qps("quote", 2));

    engine.apply(dev.guard.api.rule.RuleSet.of(FlowRule.qps("quote", 3)));
    HttpResponse<String> reloaded = post("/actuator/guard", "{\"action\":\"reload\"}", ADMIN);
    assertThat(JSON.readTree(reloaded.body()).at("/applied").asBoolean()).isTrue();
    assertThat(engine.rules("quote")).containsExactly(FlowRule.qps("quote", 2));
  }

  @Test
  void the_engines_meters_are_on_the_applications_registry() throws Exception {
    get("/quote/m", null);
    meters.get("guard.resources").gauge().value(); // a scrape registers resources called since
    assertThat(meters.find("guard.calls").tag("resource", "quote").functionCounters()).isNotEmpty();
  }

  @Test
  void the_dashboard_is_behind_the_applications_security() throws Exception {
    HttpResponse<String> anonymous = get("/ops/guard/api/resources", null);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
        challenge -> assertThat(challenge).startsWith("Basic"));
    // past the application's security, the dashboard asks for its own secret
    HttpResponse<String> admin = get("/ops/guard/api/resources", ADMIN);
    assertThat(admin.statusCode()).isEqualTo(401);
    assertThat(admin.body()).contains("authentication required");
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private HttpResponse<String> get(String path, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String body, String authorization)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @SpringBootApplication(proxyBeanMethods = false)
  static class Shop {
    @Bean
    ManualClock clock() {
      return new ManualClock();
    }

    @Bean
    Quotes quotes() {
      return new Quotes();
    }

    @Bean
    ShopController shopController(Quotes quotes) {
      return new ShopController(quotes);
    }

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
      return http
          .authorizeHttpRequests(requests -> requests
              .requestMatchers("/actuator/health", "/actuator/health/**").permitAll()
              .requestMatchers("/actuator/**", "/ops/**").hasRole("ADMIN")
              .anyRequest().permitAll())
          .httpBasic(Customizer.withDefaults())
          .csrf(csrf -> csrf.disable())
          .build();
    }

    @Bean
    InMemoryUserDetailsManager users() {
      return new InMemoryUserDetailsManager(
          User.withUsername("admin").password("{noop}admin-password").roles("ADMIN").build());
    }
  }

  static class Quotes {
    @Guarded(value = "quote", onRefusal = "noQuote")
    public String quote(String item) {
      return "quote " + item;
    }

    String noQuote(String item, RefusedException refused) {
      return "no quote for " + item + " now (" + RefusedException.Kind.of(refused).tag() + ")";
    }

    @Guarded(value = "payments", onRefusal = "paused")
    public String pay() {
      return "paid";
    }

    String paused(RefusedException refused) {
      return "payments are paused (" + RefusedException.Kind.of(refused).tag() + ")";
    }
  }

  @RestController
  static class ShopController {
    private final Quotes quotes;

    ShopController(Quotes quotes) {
      this.quotes = quotes;
    }

    @GetMapping("/quote/{item}")
    String quote(@PathVariable String item) {
      return quotes.quote(item);
    }

    @GetMapping("/pay")
    String pay() {
      return quotes.pay();
    }
  }
}
