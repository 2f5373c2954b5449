package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sessions that end (idle, lifetime, logout) and failed logins that are throttled per address, on
 * the engine's manual clock (docs/DASHBOARD.md, "Sessions" and "Failed logins").
 */
class DashboardSessionTest {

  private final Fixture fixture = Fixture.withToken();

  @AfterEach
  void close() {
    fixture.close();
  }

  private HttpResponse<String> login(String token) {
    return fixture.send(fixture.request("login")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("token=" + token)));
  }

  private String session() {
    String cookie = login(Fixture.TOKEN).headers().firstValue("Set-Cookie").orElseThrow();
    return cookie.substring(0, cookie.indexOf(';'));
  }

  private int read(String session) {
    return fixture.send(fixture.request("api/resources").header("Cookie", session)).statusCode();
  }

  private void advanceMinutes(long minutes) {
    fixture.clock.advance(Duration.ofMinutes(minutes));
  }

  @Test
  void session_usedWithinHalfAnHour_lastsAndIdleForHalfAnHour_ends() {
    String session = session();

    advanceMinutes(29);
    assertThat(read(session)).isEqualTo(200);
    advanceMinutes(29);
    assertThat(read(session)).isEqualTo(200);
    advanceMinutes(30);
    assertThat(read(session)).isEqualTo(401);
  }

  @Test
  void session_usedAllAlong_endsTwelveHoursAfterTheLogin() {
    String session = session();

    for (int i = 0; i < 35; i++) { // 35 x 20 min = 11 h 40 min
      advanceMinutes(20);
      assertThat(read(session)).as("after %d min", (i + 1) * 20).isEqualTo(200);
    }
    advanceMinutes(20);
    assertThat(read(session)).isEqualTo(401);
    assertThat(read(session())).as("a new login").isEqualTo(200);
  }

  @Test
  void logout_endsTheSessionAndClearsTheCookie() {
    String session = session();
    String other = session();

    HttpResponse<String> logout = fixture.send(fixture.request("logout").header("Cookie", session)
        .header("X-Guard-Dashboard", "1").POST(HttpRequest.BodyPublishers.noBody()));

    assertThat(logout.statusCode()).isEqualTo(204);
    assertThat(logout.headers().firstValue("Set-Cookie")).hasValueSatisfying(cookie -> assertThat(
        cookie).startsWith(session.substring(0, session.indexOf('=') + 1) + ";")
        .contains("Max-Age=0").contains("HttpOnly"));
    assertThat(read(session)).isEqualTo(401);
    assertThat(read(other)).as("another browser's session").isEqualTo(200);
  }

  @Test
  void logout_withoutTheDashboardHeaderOrAsGet_isRefusedAndTheSessionLasts() {
    String session = session();

    HttpResponse<String> forged = fixture.send(fixture.request("logout").header("Cookie", session)
        .POST(HttpRequest.BodyPublishers.noBody()));
    HttpResponse<String> get = fixture.send(fixture.request("logout").header("Cookie", session));

    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(read(session)).isEqualTo(200);
  }

  @Test
  void session_behindTheApplicationsOwnBasicAuth_isNeverCountedAsAFailedLogin() {
    String session = session();

    for (int i = 0; i < 20; i++) { // every request of the browser carries the application's login
      assertThat(fixture.send(fixture.request("api/resources").header("Cookie", session)
          .header("Authorization", Fixture.basic("shop-admin", "the application's password")))
          .statusCode()).as("request %d", i + 1).isEqualTo(200);
    }
    assertThat(fixture.send(fixture.request("api/resources")
        .header("Authorization", Fixture.basic("shop-admin", "the application's password")))
        .statusCode()).as("the same header without a session").isEqualTo(401);
  }

  @Test
  void failedLogins_fiveThenRefused429WithRetryAfterEvenForTheRightToken() {
    for (int i = 0; i < 5; i++) {
      assertThat(login("guess-" + i).statusCode()).as("failure %d", i + 1).isEqualTo(401);
    }

    HttpResponse<String> refused = login(Fixture.TOKEN);

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
    assertThat(refused.body()).contains("Too many failed logins");
    fixture.advanceSeconds(1);
    assertThat(login(Fixture.TOKEN).statusCode()).isEqualTo(303);
    for (int i = 0; i < 4; i++) { // a success forgets the failures
      assertThat(login("guess").statusCode()).isEqualTo(401);
    }
  }

  @Test
  void failedLogins_eachFurtherFailureDoublesTheRefusal() {
    for (int i = 0; i < 5; i++) {
      login("guess");
    }
    List<String> waits = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String wait = login("guess").headers().firstValue("Retry-After").orElseThrow();
      waits.add(wait);
      fixture.advanceSeconds(Integer.parseInt(wait));
      assertThat(login("guess").statusCode()).isEqualTo(401); // checked again, and counted
    }

    assertThat(waits).containsExactly("1", "2", "4", "8", "16");
  }

  @Test
  void failedLogins_wrongBearerTokensCountAndTheApiAnswersJson429() {
    for (int i = 0; i < 5; i++) {
      assertThat(fixture.send(fixture.request("api/resources")
          .header("Authorization", "Bearer guess-" + i + "-0123456789")).statusCode())
          .isEqualTo(401);
    }

    HttpResponse<String> refused = fixture.send(fixture.authorized("api/resources"));

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(Fixture.json(refused.body()).get("error").asString()).contains("try again in 1 s");
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
  }

  @Test
  void failedLogins_areCountedPerAddress() throws IOException {
    for (int i = 0; i < 5; i++) {
      login("guess");
    }
    assertThat(login(Fixture.TOKEN).statusCode()).isEqualTo(429);

    assertThat(loginFrom("127.0.0.2", Fixture.TOKEN)).startsWith("HTTP/1.1 303");
  }

  private String loginFrom(String address, String token) throws IOException {
    URI uri = fixture.server.uri();
    String body = "token=" + token;
    try (Socket socket = new Socket(InetAddress.getByName(uri.getHost()), uri.getPort(),
        InetAddress.getByName(address), 0)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
          + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length()
          + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    }
  }
}
