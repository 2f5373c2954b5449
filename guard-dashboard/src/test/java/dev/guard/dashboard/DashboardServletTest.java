package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The same dashboard mounted as a servlet below /guard/ on an embedded Jetty 12. */
class DashboardServletTest {

  private final GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
  private final HttpClient http = HttpClient.newHttpClient();
  private Server server = new Server();
  private URI base = URI.create("http://127.0.0.1/");

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    GuardDashboard dashboard = GuardDashboard.builder(engine).accessToken(Fixture.TOKEN).build();
    context.addServlet(new ServletHolder(dashboard.servlet()), "/guard/*");
    server.setHandler(context);
    server.start();
    base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/guard/");
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servlet_servesTheApiBelowItsPathWithTheToken() throws Exception {
    engine.resource("orders").declare(java.util.List.of(FlowRule.qps("orders", 1)));
    engine.resource("orders").enter().close();

    HttpResponse<String> refused = send(HttpRequest.newBuilder(base.resolve("api/resources")));
    HttpResponse<String> listed = send(HttpRequest.newBuilder(base.resolve("api/resources"))
        .header("Authorization", "Bearer " + Fixture.TOKEN));

    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(listed.statusCode()).isEqualTo(200);
    assertThat(Fixture.json(listed.body()).get("resources").get(0).get("name").asString())
        .isEqualTo("orders");
  }

  @Test
  void servlet_appliesARuleEdit() throws Exception {
    HttpResponse<String> response = send(HttpRequest.newBuilder(base.resolve("api/rules"))
        .header("Authorization", "Bearer " + Fixture.TOKEN).header("X-Guard-Dashboard", "1")
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(
            "{\"version\": 1, \"flow\": [{\"resource\": \"orders\", \"qps\": 4}]}")));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(engine.rules("orders")).containsExactly(FlowRule.qps("orders", 4));
  }

  @Test
  void servlet_servesThePagesAndRedirectsTheBarePath() throws Exception {
    HttpResponse<String> page = send(HttpRequest.newBuilder(base.resolve("resource.html?name=x"))
        .header("Authorization", "Bearer " + Fixture.TOKEN));
    HttpResponse<String> bare = send(HttpRequest.newBuilder(base.resolve("/guard")));

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("resource.js");
    assertThat(bare.statusCode()).isEqualTo(302);
    assertThat(bare.headers().firstValue("Location").orElseThrow()).endsWith("/guard/");
  }
}
