package dev.guard.http;

import dev.guard.api.internal.Checks;
import dev.guard.api.EntryType;
import dev.guard.engine.GuardEngine;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntPredicate;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link GuardedHttpClient}, or any client adapter built on an {@link OutboundGate},
 * protects the calls it sends: an immutable value, every setting method returns a new one.
 *
 * <pre>{@code
 * GuardedHttpClient payments = HttpOutbound.of(engine).decorate(HttpClient.newHttpClient());
 * engine.resource("https://payments.example.com").declare(List.of(FlowRule.qps("https://payments.example.com", 50)));
 *
 * HttpResponse<String> response = payments.send(request, BodyHandlers.ofString()); // RefusedException when refused
 * }</pre>
 *
 * <p>Every call is an {@link EntryType#OUT} entry of a resource named after the request's host,
 * {@code scheme://host[:port]} as in the request URI (default), or after its host and path
 * template, {@code METHOD scheme://host[:port]/cleaned/path} ({@link #perPath}). The exact
 * behaviour is in the project's {@code docs/HTTP.md}.
 */
public final class HttpOutbound {

  /**
   * The one catch-all resource a call maps to when its name would be a new resource beyond {@link
   * #maxResources} (and the engine has no rules for that name), or is longer than 1,024
   * characters; rules on it limit that traffic.
   */
  public static final String OVERFLOW_RESOURCE = "{outbound overflow}";

  private final GuardEngine engine;
  private final @Nullable Function<String, String> pathCleaner;
  private final int maxResources;
  private final IntPredicate errorStatuses;

  private HttpOutbound(GuardEngine engine, @Nullable Function<String, String> pathCleaner,
      int maxResources, IntPredicate errorStatuses) {
    this.engine = engine;
    this.pathCleaner = pathCleaner;
    this.maxResources = maxResources;
    this.errorStatuses = errorStatuses;
  }

  /**
   * Returns the default settings on an engine: one resource per host, at most 500 resources, 5xx
   * responses counted as errors.
   *
   * @param engine the engine that decides the calls
   * @return the settings
   */
  public static HttpOutbound of(GuardEngine engine) {
    Objects.requireNonNull(engine, "engine");
    return new HttpOutbound(engine, null, 500, HttpInbound::isServerError);
  }

  /**
   * Returns settings that name a call's resource after its method, host and cleaned path, {@code
   * GET https://api.example.com/orders/{id}}, instead of its host alone.
   *
   * @param cleaner maps the request's raw path to a path template, for example {@link
   *     HttpInbound#defaultPathCleaner()}
   * @return the new settings
   */
  public HttpOutbound perPath(Function<String, String> cleaner) {
    Objects.requireNonNull(cleaner, "perPath");
    return new HttpOutbound(engine, cleaner, maxResources, errorStatuses);
  }

  /**
   * Returns settings under which a client creates at most {@code max} resources (default 500):
   * further names map to {@value #OVERFLOW_RESOURCE}, and each such call is counted (see {@link
   * OutboundGate#overflows()}).
   *
   * @param max the bound; {@code > 0}
   * @return the new settings
   * @throws IllegalArgumentException if {@code max} is not positive
   */
  public HttpOutbound maxResources(int max) {
    Checks.positive("maxResources", max);
    return new HttpOutbound(engine, pathCleaner, max, errorStatuses);
  }

  /**
   * Returns settings under which a response status for which {@code isError} is true counts as a
   * failed call for statistics and circuit breakers (default: 5xx). An error naming
   * the status is recorded for it; the response is still returned to the caller.
   *
   * @param isError tells whether a status code is an error
   * @return the new settings
   */
  public HttpOutbound errorStatuses(IntPredicate isError) {
    Objects.requireNonNull(isError, "errorStatuses");
    return new HttpOutbound(engine, pathCleaner, maxResources, isError);
  }

  /**
   * Decorates a client: the returned client sends through {@code client} under these settings,
   * each call admitted by an {@link OutboundGate} of its own (its own bounded resource table).
   *
   * @param client the client that sends the requests
   * @return the guarded client
   */
  public GuardedHttpClient decorate(HttpClient client) {
    Objects.requireNonNull(client, "client");
    return new GuardedHttpClient(client, OutboundGate.of(this));
  }

  GuardEngine engine() {
    return engine;
  }

  int resourceBound() {
    return maxResources;
  }

  /** The resource of a call: its host, or its method, host and cleaned path ({@link #perPath}). */
  String resourceName(String method, URI uri) {
    int port = uri.getPort();
    String host = uri.getScheme() + "://" + uri.getHost() + (port < 0 ? "" : ":" + port);
    Function<String, String> cleaner = pathCleaner;
    if (cleaner == null) {
      return host;
    }
    String path = uri.getRawPath();
    String cleaned = cleaner.apply(path == null || path.isEmpty() ? "/" : path);
    return method + " " + host + Objects.requireNonNull(cleaned, "cleaned path");
  }

  boolean isErrorStatus(int status) {
    return errorStatuses.test(status);
  }

  @Override
  public String toString() {
    return "HttpOutbound[" + (pathCleaner == null ? "per host" : "per path") + ", maxResources="
        + maxResources + "]";
  }
}
