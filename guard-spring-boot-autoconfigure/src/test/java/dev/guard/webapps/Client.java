package dev.guard.webapps;

import dev.guard.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A real HTTP client for a test application on its port. */
public final class Client {

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  private final URI base;

  public Client(int port) {
    this.base = URI.create("http://127.0.0.1:" + port);
  }

  /**
   * Waits, at most ten seconds, until a condition holds: the server may finish its side of a
   * request (the entry's exit) just after the client has read the response.
   */
  public static void awaitUntil(java.util.function.BooleanSupplier condition) {
    Await.until("the server to finish its side of the request", Duration.ofSeconds(10),
        condition::getAsBoolean);
  }

  public HttpResponse<String> get(String path) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
        .timeout(Duration.ofSeconds(10)).build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<String> get(String path, String header, String value) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).header(header, value)
        .timeout(Duration.ofSeconds(10)).build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
