package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** Authentication, the loopback defaults and the cross-site protections of docs/DASHBOARD.md. */
class DashboardSecurityTest {

  private static final String RULES = "{\"version\": 1, \"flow\": [{\"resource\": \"orders\", \"qps\": 1}]}";

  private static HttpRequest.Builder put(HttpRequest.Builder request) {
    return request.header("X-Guard-Dashboard", "1").header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(RULES));
  }

  @Test
  void withToken_requestsWithoutIt_are401AndChangeNothing() {
    try (Fixture fixture = Fixture.withToken()) {
      HttpResponse<String> read = fixture.send(fixture.request("api/resources"));
      HttpResponse<String> write = fixture.send(put(fixture.request("api/rules")));
      HttpResponse<String> wrong = fixture.send(put(fixture.request("api/rules")
          .header("Authorization", "Bearer not-the-token-at-all")));
      HttpResponse<String> page = fixture.send(fixture.request(""));

      assertThat(read.statusCode()).isEqualTo(401);
      assertThat(write.statusCode()).isEqualTo(401);
      assertThat(wrong.statusCode()).isEqualTo(401);
      assertThat(page.statusCode()).isEqualTo(401);
      assertThat(page.body()).contains("Access token");
      assertThat(fixture.engine.ruleSet()).isEqualTo(RuleSet.empty());
    }
  }

  @Test
  void withToken_bearerToken_isAccepted() {
    try (Fixture fixture = Fixture.withToken()) {
      assertThat(fixture.send(fixture.authorized("api/resources")).statusCode()).isEqualTo(200);
      assertThat(fixture.send(put(fixture.authorized("api/rules"))).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void withCredentials_basicAuthentication_isAcceptedAndAWrongPasswordIsNot() {
    try (Fixture fixture = new Fixture(b -> b.credentials("ops", "correct horse"))) {
      HttpResponse<String> right = fixture.send(fixture.request("api/resources")
          .header("Authorization", Fixture.basic("ops", "correct horse")));
      HttpResponse<String> wrong = fixture.send(fixture.request("api/resources")
          .header("Authorization", Fixture.basic("ops", "wrong horse")));

      assertThat(right.statusCode()).isEqualTo(200);
      assertThat(wrong.statusCode()).isEqualTo(401);
      assertThat(wrong.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
          value -> assertThat(value).startsWith("Basic"));
    }
  }

  @Test
  void login_withTheToken_setsAnHttpOnlySessionCookieThatAuthenticates() {
    try (Fixture fixture = Fixture.withToken()) {
      HttpResponse<String> login = fixture.send(fixture.request("login")
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString("token=" + Fixture.TOKEN)));
      String cookie = login.headers().firstValue("Set-Cookie").orElseThrow();
      String session = cookie.substring(0, cookie.indexOf(';'));

      assertThat(login.statusCode()).isEqualTo(303);
      assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict")
          .doesNotContain(Fixture.TOKEN);
      assertThat(fixture.send(fixture.request("api/resources").header("Cookie", session))
          .statusCode()).isEqualTo(200);
      assertThat(fixture.send(put(fixture.request("api/rules").header("Cookie", session)))
          .statusCode()).isEqualTo(200);
    }
  }

  @Test
  void login_withAWrongToken_is401WithoutACookie() {
    try (Fixture fixture = Fixture.withToken()) {
      HttpResponse<String> login = fixture.send(fixture.request("login")
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString("token=guess")));

      assertThat(login.statusCode()).isEqualTo(401);
      assertThat(login.headers().firstValue("Set-Cookie")).isEmpty();
    }
  }

  @Test
  void tokenInThePageAddress_logsInAndRedirectsWithoutIt() {
    try (Fixture fixture = Fixture.withToken()) {
      HttpResponse<String> page = fixture.send(
          fixture.request("resource.html?name=a%20b&token=" + Fixture.TOKEN));

      assertThat(page.statusCode()).isEqualTo(303);
      assertThat(page.headers().firstValue("Location")).hasValue("resource.html?name=a+b");
      assertThat(page.headers().firstValue("Set-Cookie")).isPresent();
    }
  }

  @Test
  void changes_withoutTheDashboardHeader_areRefused403() {
    try (Fixture fixture = Fixture.withToken()) {
      HttpResponse<String> response = fixture.send(fixture.authorized("api/rules")
          .header("Content-Type", "application/json")
          .PUT(HttpRequest.BodyPublishers.ofString(RULES)));

      assertThat(response.statusCode()).isEqualTo(403);
      assertThat(fixture.engine.ruleSet()).isEqualTo(RuleSet.empty());
    }
  }

  @Test
  void changes_asAFormPost_areRefused415() {
    try (Fixture fixture = Fixture.withToken()) {
      HttpResponse<String> response = fixture.send(fixture.authorized("api/rules")
          .header("X-Guard-Dashboard", "1")
          .header("Content-Type", "application/x-www-form-urlencoded")
          .PUT(HttpRequest.BodyPublishers.ofString(RULES)));

      assertThat(response.statusCode()).isEqualTo(415);
    }
  }

  @Test
  void loopbackWithoutSecret_readsAreOpenButChangesNeedTheGeneratedToken() {
    try (Fixture fixture = new Fixture(b -> b)) {
      String token = fixture.server.browserUri().getQuery().substring("token=".length());

      assertThat(fixture.server.uri().getHost()).isEqualTo("127.0.0.1");
      assertThat(fixture.send(fixture.request("api/resources")).statusCode()).isEqualTo(200);
      assertThat(fixture.send(put(fixture.request("api/rules"))).statusCode()).isEqualTo(401);
      assertThat(fixture.send(put(fixture.request("api/rules")
          .header("Authorization", "Bearer " + token))).statusCode()).isEqualTo(200);
      assertThat(fixture.engine.rules("orders")).containsExactly(FlowRule.qps("orders", 1));
    }
  }

  /** Hosts a foreign site can point at 127.0.0.1, or that are no host at all. */
  static final List<String> HOSTILE_HOSTS = List.of(
      "evil.example", "127.0.0.1.evil.example", "127.evil.example", "127.0.0.1.nip.io",
      "[::1].evil.example", "localhost.evil.example", "localhost.", "evil.localhost",
      "127.0.0.1:80.evil.example", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:80:80",
      "127.0.0.256", "127.0.0", "127.0.0.1.1", "128.0.0.1", "0.0.0.0", "10.0.0.1",
      "[::1", "[::2]", "[::ffff:127.0.0.1]", "::1", "127.0.0.1 .evil.example", "");

  /** Loopback hosts as browsers and tools write them, with and without a port. */
  static final List<String> LOOPBACK_HOSTS = List.of(
      "localhost", "LOCALHOST", "localhost:8719", "127.0.0.1", "127.0.0.1:8719", "127.1.2.3",
      "127.255.255.255:1", "[::1]", "[::1]:8719");

  @Test
  void loopback_hostileHosts_areRefused403AndLoopbackHostsAnswered() throws IOException {
    try (Fixture fixture = new Fixture(b -> b)) {
      URI uri = fixture.server.uri();
      SoftAssertions softly = new SoftAssertions();
      for (String host : HOSTILE_HOSTS) {
        softly.assertThat(rawGet(uri, host)).as(host).startsWith("HTTP/1.1 403")
            .contains("Host must be localhost");
      }
      for (String host : LOOPBACK_HOSTS) {
        softly.assertThat(rawGet(uri, host)).as(host).startsWith("HTTP/1.1 200");
      }
      softly.assertAll();
    }
  }

  @Test
  void loopback_requestWithoutHost_isRefused403() throws IOException {
    try (Fixture fixture = new Fixture(b -> b)) {
      URI uri = fixture.server.uri();
      try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
        socket.getOutputStream().write("GET /api/rules HTTP/1.0\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
            .startsWith("HTTP/1.1 403");
      }
    }
  }

  private static String rawGet(URI uri, String host) throws IOException {
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET /api/rules HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }
  @Test
  void staticFiles_needNoAuthenticationAndFetchNothingFromElsewhere() {
    try (Fixture fixture = Fixture.withToken()) {
      for (String file : List.of("dashboard.css", "common.js", "list.js", "resource.js")) {
        HttpResponse<String> response = fixture.send(fixture.request(file));

        assertThat(response.statusCode()).as(file).isEqualTo(200);
        assertThat(response.body().replace("http://www.w3.org/2000/svg", ""))
            .as(file).doesNotContain("http://").doesNotContain("https://");
      }
    }
  }

  @Test
  void responses_forbidFramingAndForeignScripts() {
    try (Fixture fixture = Fixture.withToken()) {
      HttpResponse<String> page = fixture.send(fixture.authorized(""));

      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
          csp -> assertThat(csp).contains("default-src 'self'").contains("frame-ancestors 'none'"));
      assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    }
  }

  @Test
  void docs_listExactlyTheHeadersEveryResponseCarries() throws IOException {
    Path doc = Path.of("..", "docs", "DASHBOARD.md");
    assertThat(doc).as("docs/DASHBOARD.md next to this module").isRegularFile();
    String text = Files.readString(doc);
    Map<String, String> documented = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    Matcher line = Pattern.compile("(?m)^\\s*([A-Z][A-Za-z-]+): (.+)$").matcher(text);
    while (line.find()) {
      documented.put(line.group(1), line.group(2).trim());
    }
    try (Fixture fixture = Fixture.withToken()) {
      for (HttpResponse<String> response : List.of(fixture.send(fixture.authorized("")),
          fixture.send(fixture.request("api/rules")), fixture.send(fixture.request("common.js")))) {
        Map<String, String> sent = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        response.headers().map().forEach((name, values) -> sent.put(name, values.get(0)));
        sent.keySet().removeAll(List.of("content-type", "content-length", "date",
            "www-authenticate"));

        assertThat(sent).as(response.uri().toString()).isEqualTo(documented);
      }
    }
    assertThat(text.split("Content-Security-Policy", -1)).as("one policy in the doc").hasSize(2);
  }

  @Test
  void build_onAnotherAddressWithoutSecret_failsNamingTheField() throws IOException {
    GuardDashboard.Builder builder = GuardDashboard.builder(
        dev.guard.engine.GuardEngine.builder().build())
        .bindAddress(InetAddress.getByName("0.0.0.0"));

    assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bindAddress 0.0.0.0").hasMessageContaining("accessToken");
  }

  @Test
  void builder_shortTokenOrRepeatedOption_isRefused() {
    GuardDashboard.Builder builder =
        GuardDashboard.builder(dev.guard.engine.GuardEngine.builder().build()).port(0);

    assertThatThrownBy(() -> builder.accessToken("short")).hasMessageContaining("accessToken");
    assertThatThrownBy(() -> builder.port(1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("port");
  }

  @Test
  void servlet_withoutSecret_isRefused() {
    GuardDashboard open = GuardDashboard.builder(dev.guard.engine.GuardEngine.builder().build())
        .build();

    assertThatThrownBy(() -> open.servlet())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("accessToken");
  }
}
