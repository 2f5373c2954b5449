package dev.guard.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that send half a request and wait, over real sockets: they neither hold the rest up nor
 * keep their worker past the request deadline (docs/DASHBOARD.md, "Slow clients").
 */
class DashboardSlowClientTest {

  /** Half-sent headers and half-sent login bodies, each this many. */
  static final int SLOW_CLIENTS = 16;

  /** Ordinary requests made while the slow clients hold their connections. */
  static final int NORMAL_REQUESTS = 24;

  private static final String LOGIN_HEAD = "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 40\r\n\r\ntoken=";

  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void closeSockets() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
  }

  private Socket open(URI uri, String firstBytes) throws IOException {
    Socket socket = new Socket(uri.getHost(), uri.getPort());
    sockets.add(socket);
    socket.setSoTimeout(30_000);
    OutputStream out = socket.getOutputStream();
    out.write(firstBytes.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  private static String finish(Socket socket, String rest) throws IOException {
    socket.getOutputStream().write(rest.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    byte[] head = socket.getInputStream().readNBytes(12);
    return new String(head, StandardCharsets.US_ASCII);
  }

  @Test
  void slowClients_heldOpen_doNotKeepOthersWaiting() throws Exception {
    try (Fixture fixture = new Fixture(
        b -> b.accessToken(Fixture.TOKEN).requestTimeout(Duration.ofMinutes(5)))) {
      URI uri = fixture.server.uri();
      List<Socket> halfHeaders = new ArrayList<>();
      List<Socket> halfBodies = new ArrayList<>();
      for (int i = 0; i < SLOW_CLIENTS; i++) {
        halfHeaders.add(open(uri, "GET / HTTP/1.1\r\nX: "));
        halfBodies.add(open(uri, LOGIN_HEAD + "abc"));
      }

      CountDownLatch served = new CountDownLatch(NORMAL_REQUESTS);
      List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
      for (int i = 0; i < NORMAL_REQUESTS; i++) {
        HttpRequest.Builder request = i % 2 == 0 ? fixture.authorized("api/resources")
            : fixture.request("login").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("token=" + Fixture.TOKEN));
        answers.add(fixture.http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
            .whenComplete((response, failure) -> served.countDown()));
      }

      assertThat(served.await(60, TimeUnit.SECONDS)).as("normal requests answered").isTrue();
      for (int i = 0; i < NORMAL_REQUESTS; i++) {
        assertThat(answers.get(i).get().statusCode()).isEqualTo(i % 2 == 0 ? 200 : 303);
      }
      // the slow clients were held all along, and are answered once they finish
      for (Socket socket : halfHeaders) {
        assertThat(finish(socket, "1\r\nHost: 127.0.0.1\r\n\r\n")).isEqualTo("HTTP/1.1 401");
      }
      for (Socket socket : halfBodies) { // wrong tokens: refused, and after five, throttled
        assertThat(finish(socket, "-".repeat(31))).isIn("HTTP/1.1 401", "HTTP/1.1 429");
      }
    }
  }

  /** The deadline is short here, so no ordinary request is made: a busy machine may miss it. */
  @Test
  void slowClients_pastTheDeadline_areCutOff() throws Exception {
    try (Fixture fixture = new Fixture(b -> b.requestTimeout(Duration.ofMillis(200)))) {
      URI uri = fixture.server.uri();
      Socket halfHeader = open(uri, "GET /api/resources HTTP/1.1\r\nX: ");
      Socket halfBody = open(uri, LOGIN_HEAD + "abc");

      assertThat(endOfStream(halfHeader)).as("half-sent headers cut off").isTrue();
      assertThat(endOfStream(halfBody)).as("half-sent body cut off").isTrue();
    }
  }

  /** Whether the server closes the connection (within the socket's 30 s read timeout). */
  private static boolean endOfStream(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    try {
      return in.read() == -1;
    } catch (SocketException reset) {
      return true;
    }
  }
}
