package dev.guard.http;

import dev.guard.api.RefusedException;
import dev.guard.api.internal.Checks;
import dev.guard.engine.GuardEngine;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How the inbound adapters ({@link GuardServletFilter}, {@link GuardHttpServerFilter}) protect
 * the requests of one web application: an immutable value, every setting method returns a new
 * one, so a partial setting is a template.
 *
 * <pre>{@code
 * HttpInbound inbound = HttpInbound.of(engine)
 *     .entrance("shop")                 // the context every request runs in
 *     .originHeader("X-Caller");         // the caller's identity, for origin and origin rules
 * context.addFilter("guard", GuardServletFilter.of(inbound)).addMappingForUrlPatterns(null, false, "/*");
 * }</pre>
 *
 * <p>Each request enters the resource {@code METHOD + " " + cleaned path} (for example {@code GET
 * /orders/{id}}; the method in upper case, a {@code HEAD} as its {@code GET}; the path as the
 * server routes it, a path whose meaning is ambiguous answered 400) as an {@link
 * dev.guard.api.EntryType#IN} call, inside the context named by
 * {@link #entrance} with the origin from {@link #originHeader} or {@link #origin}. A refused
 * request gets the {@link #refusalResponse} and the handler does not run. The exact behaviour is
 * in the project's {@code docs/HTTP.md}.
 */
public final class HttpInbound {

  /**
   * The one catch-all resource, for every method: a request maps to it when its name would be a
   * new resource beyond {@link #maxResources} (and the engine has no rules for that name), or when
   * its name is longer than 1,024 characters. Rules on it limit that traffic like any resource's:
   * {@code engine.apply(engine.ruleSet().withRulesOf(OVERFLOW_RESOURCE, List.of(FlowRule.qps(OVERFLOW_RESOURCE, 50))))}.
   */
  public static final String OVERFLOW_RESOURCE = "{inbound overflow}";

  /** The default entrance (context) name. */
  public static final String DEFAULT_ENTRANCE = "http";


  private final GuardEngine engine;
  private final String entrance;
  private final Function<? super Request, String> origin;
  private final Function<String, String> pathCleaner;
  private final int maxResources;
  private final Function<? super RefusedException, RefusalResponse> refusalResponse;
  private final IntPredicate errorStatuses;
  private final Function<? super Request, @Nullable String> pathTemplate;
  private final boolean rateLimitHeaders;
  private final Function<? super Request, @Nullable Object[]> arguments;

  private HttpInbound(GuardEngine engine, String entrance,
      Function<? super Request, String> origin, Function<String, String> pathCleaner,
      int maxResources, Function<? super RefusedException, RefusalResponse> refusalResponse,
      IntPredicate errorStatuses, Function<? super Request, @Nullable String> pathTemplate,
      boolean rateLimitHeaders, Function<? super Request, @Nullable Object[]> arguments) {
    this.engine = engine;
    this.entrance = entrance;
    this.origin = origin;
    this.pathCleaner = pathCleaner;
    this.maxResources = maxResources;
    this.refusalResponse = refusalResponse;
    this.errorStatuses = errorStatuses;
    this.pathTemplate = pathTemplate;
    this.rateLimitHeaders = rateLimitHeaders;
    this.arguments = arguments;
  }

  private HttpInbound(HttpInbound base, Function<? super Request, @Nullable String> pathTemplate,
      boolean rateLimitHeaders, Function<? super Request, @Nullable Object[]> arguments) {
    this(base.engine, base.entrance, base.origin, base.pathCleaner, base.maxResources,
        base.refusalResponse, base.errorStatuses, pathTemplate, rateLimitHeaders, arguments);
  }

  /**
   * Returns the default settings on an engine: entrance {@value #DEFAULT_ENTRANCE}, no origin,
   * {@link #defaultPathCleaner()}, at most 500 resources, {@link RefusalResponse#of}, 5xx
   * responses counted as errors, no rate-limit headers and no arguments.
   *
   * @param engine the engine that decides the requests
   * @return the settings
   */
  public static HttpInbound of(GuardEngine engine) {
    Objects.requireNonNull(engine, "engine");
    return new HttpInbound(engine, DEFAULT_ENTRANCE, HttpInbound::unknownOrigin,
        PathCleaner.ids(), 500, RefusalResponse::of, HttpInbound::isServerError,
        HttpInbound::noTemplate, false, HeaderArguments.NONE);
  }

  /**
   * Returns the default path cleaner, so that {@code /orders/123} and {@code /orders/456} are one
   * resource, {@code /orders/{id}}: path parameters ({@code ;jsessionid=...}) and empty segments
   * are dropped (an empty path is {@code /}), and an identifier segment becomes {@code {id}}: all
   * decimal digits, a UUID ({@code 8-4-4-4-12} hex digits), or hex digits and dashes only with at
   * least 16 hex digits, one of them a decimal digit (object ids, hashes).
   *
   * <pre>{@code
   * HttpInbound.defaultPathCleaner().apply("/orders/123/items/;v=2");   // "/orders/{id}/items"
   * HttpInbound.of(engine).pathCleaner(path -> path.startsWith("/static/")
   *     ? "/static/**" : HttpInbound.defaultPathCleaner().apply(path));
   * }</pre>
   *
   * @return the cleaner; thread-safe and stateless
   */
  public static Function<String, String> defaultPathCleaner() {
    return PathCleaner.ids();
  }

  private static String unknownOrigin(Request request) {
    return "";
  }

  private static @Nullable String noTemplate(Request request) {
    return null;
  }

  static boolean isServerError(int status) {
    return status >= 500;
  }

  /**
   * Returns settings whose requests run in the context (entrance) of this name: one name per web
   * application, so that CHAIN flow rules and entrance statistics can tell applications apart.
   *
   * @param name the context name; not blank
   * @return the new settings
   * @throws IllegalArgumentException if {@code name} is blank
   */
  public HttpInbound entrance(String name) {
    Checks.notBlank("entrance", name);
    return new HttpInbound(engine, name, origin, pathCleaner, maxResources, refusalResponse,
        errorStatuses, pathTemplate, rateLimitHeaders, arguments);
  }

  /**
   * Returns settings that take the caller's origin from a request header: its first value,
   * trimmed; the empty origin (unknown caller) when the header is absent. Replaces {@link
   * #origin}.
   *
   * @param name the header name, case-insensitive; not blank
   * @return the new settings
   * @throws IllegalArgumentException if {@code name} is blank
   */
  public HttpInbound originHeader(String name) {
    Checks.notBlank("originHeader", name);
    return origin(request -> request.header(name).map(String::trim).orElse(""));
  }

  /**
   * Returns settings that derive the caller's origin from the request with a function (the empty
   * string for an unknown caller). Replaces {@link #originHeader}. An exception it throws fails
   * the request before guard decides it.
   *
   * @param parser computes the origin of a request
   * @return the new settings
   */
  public HttpInbound origin(Function<? super Request, String> parser) {
    Objects.requireNonNull(parser, "origin");
    return new HttpInbound(engine, entrance, parser, pathCleaner, maxResources, refusalResponse,
        errorStatuses, pathTemplate, rateLimitHeaders, arguments);
  }

  /**
   * Returns settings that clean request paths with this function: it receives the path the server
   * routes the request by, decoded and normalized (without the query; see {@code docs/HTTP.md},
   * "Which path"), and returns the path part of the resource name. The default is {@link
   * #defaultPathCleaner()}.
   *
   * @param cleaner maps a raw path to a path template
   * @return the new settings
   */
  public HttpInbound pathCleaner(Function<String, String> cleaner) {
    Objects.requireNonNull(cleaner, "pathCleaner");
    return new HttpInbound(engine, entrance, origin, cleaner, maxResources, refusalResponse,
        errorStatuses, pathTemplate, rateLimitHeaders, arguments);
  }

  /**
   * Returns settings under which an adapter creates at most {@code max} resources (default 500):
   * further names map to {@value #OVERFLOW_RESOURCE}, and each such request is counted (see
   * {@link GuardServletFilter#overflows()}). A name the engine has rules for keeps its own
   * resource even then, so made-up paths filling the bound never take a path out of its rules.
   *
   * @param max the bound; {@code > 0}
   * @return the new settings
   * @throws IllegalArgumentException if {@code max} is not positive
   */
  public HttpInbound maxResources(int max) {
    Checks.positive("maxResources", max);
    return new HttpInbound(engine, entrance, origin, pathCleaner, max, refusalResponse,
        errorStatuses, pathTemplate, rateLimitHeaders, arguments);
  }

  /**
   * Returns settings that answer refused requests with the response this function builds (the
   * default is {@link RefusalResponse#of}).
   *
   * @param handler builds the response for a refusal
   * @return the new settings
   */
  public HttpInbound refusalResponse(Function<? super RefusedException, RefusalResponse> handler) {
    Objects.requireNonNull(handler, "refusalResponse");
    return new HttpInbound(engine, entrance, origin, pathCleaner, maxResources, handler,
        errorStatuses, pathTemplate, rateLimitHeaders, arguments);
  }

  /**
   * Returns settings under which a response status for which {@code isError} is true counts as a
   * failed call for statistics and circuit breakers (the default counts 5xx; 4xx are the
   * client's errors and do not count). An error naming the status is recorded
   * for it.
   *
   * @param isError tells whether a status code is an error
   * @return the new settings
   */
  public HttpInbound errorStatuses(IntPredicate isError) {
    Objects.requireNonNull(isError, "errorStatuses");
    return new HttpInbound(engine, entrance, origin, pathCleaner, maxResources, refusalResponse,
        isError, pathTemplate, rateLimitHeaders, arguments);
  }

  /**
   * Returns settings that take the path part of a request's resource name from this function when
   * it returns one: for frameworks that know the route a request matches (Spring's handler
   * patterns, {@code /orders/{id}}), so the resource is the route rather than a cleaned path. When
   * it returns null the path is the cleaned routed path, as by default. The method part is
   * unchanged (upper case, {@code HEAD} as {@code GET}), an ambiguous path is still answered 400
   * before the function runs, and the resource bound applies. An exception it throws fails the
   * request before guard decides it.
   *
   * <pre>{@code
   * HttpInbound.of(engine).pathTemplate(request -> request.unwrap(HttpServletRequest.class)
   *     .map(routes::patternOf).orElse(null));
   * }</pre>
   *
   * @param template the route template of a request, or null for the default
   * @return the new settings
   */
  public HttpInbound pathTemplate(Function<? super Request, @Nullable String> template) {
    Objects.requireNonNull(template, "pathTemplate");
    return new HttpInbound(this, template, rateLimitHeaders, arguments);
  }

  /**
   * Returns settings that send the rate-limit header fields {@code RateLimit-Policy} and {@code
   * RateLimit} (draft-ietf-httpapi-ratelimit-headers) on admitted and refused responses whose
   * resource has a budget for the request, from {@link
   * dev.guard.engine.GuardedResource#budget(Object...)}: every policy (a QPS rule's rate per
   * second, a per-value rule's rate for the request's {@linkplain #arguments arguments}, each
   * quota of either) in {@code RateLimit-Policy: "resource";q=100;w=1,
   * "value-86400s";q=10000;w=86400}, and the one closest to refusing in {@code RateLimit:
   * "value-86400s";r=12;t=3600}.
   * Off by default; when off, nothing is read for them. {@code Retry-After} is sent on refusals
   * either way. The fields are described in {@code docs/HTTP.md}, "Rate-limit headers".
   *
   * @param send whether to send them
   * @return the new settings
   */
  public HttpInbound rateLimitHeaders(boolean send) {
    return new HttpInbound(this, pathTemplate, send, arguments);
  }

  /**
   * Returns settings under which each request enters its resource with the arguments this
   * function computes, so that per-value rules limit requests by a value taken from them (a
   * rule's argument index counts in the array the function returns): the API key a caller is
   * known by, the tenant, the client address. The rate-limit header fields then tell each caller
   * about its own value's budget as well ({@link #rateLimitHeaders}). By default a request has no
   * arguments, and per-value rules never limit it. An exception the function throws fails the
   * request before guard decides it.
   *
   * <pre>{@code
   * HttpInbound.of(engine).arguments(request -> new Object[] {accounts.keyOf(request)});
   * // rules: PerValueRule.qps("GET /search", 0, 100).withQuota(10_000, Duration.ofDays(1))
   * }</pre>
   *
   * <p>What a client sends is its own choice: a limit on an unverified value is one a client
   * escapes by sending a new value each time (each new value has a full budget). Limit by a value
   * the application has verified, or pair the per-value rule with a rule over all callers.
   *
   * @param arguments computes a request's arguments; it must not return null
   * @return the new settings
   */
  public HttpInbound arguments(Function<? super Request, @Nullable Object[]> arguments) {
    Objects.requireNonNull(arguments, "arguments");
    return new HttpInbound(this, pathTemplate, rateLimitHeaders, arguments);
  }

  /**
   * Returns settings whose requests' arguments are the values of these request headers, in this
   * order ({@link #arguments}): each header's first value, trimmed; the empty string when the
   * header is absent, so that leaving it out does not escape a per-value limit (all such requests
   * share the empty value's budget); and for a value longer than 128 characters {@code "sha256:"}
   * and its SHA-256 digest in hex, so that remembered values stay small whatever a client sends.
   *
   * @param names the header names, case-insensitive; at least one, none blank
   * @return the new settings
   * @throws IllegalArgumentException if there is no name or one is blank
   */
  public HttpInbound argumentHeaders(String... names) {
    return arguments(HeaderArguments.of(names));
  }

  /**
   * Returns a value taken from a request as an argument keeps it, the way {@link
   * #argumentHeaders} keeps header values: the value itself, or for one longer than 128
   * characters {@code "sha256:"} and its SHA-256 digest in hex, so that remembered values stay
   * small whatever a client sends. For {@link #arguments} functions that take values from
   * elsewhere in the request (the query, a cookie, the host).
   *
   * <pre>{@code
   * HttpInbound.of(engine).arguments(request -> new Object[] {
   *     HttpInbound.boundedArgument(tenantOf(request))});
   * }</pre>
   *
   * @param value the value as sent; the empty string for an absent one
   * @return the value to enter with
   */
  public static String boundedArgument(String value) {
    return HeaderArguments.bounded(Objects.requireNonNull(value, "value"));
  }

  Function<? super Request, @Nullable Object[]> argumentsOf() {
    return arguments;
  }

  Function<? super Request, @Nullable String> templates() {
    return pathTemplate;
  }

  boolean sendsRateLimitHeaders() {
    return rateLimitHeaders;
  }

  GuardEngine engine() {
    return engine;
  }

  String entranceName() {
    return entrance;
  }

  Function<? super Request, String> originParser() {
    return origin;
  }

  Function<String, String> cleaner() {
    return pathCleaner;
  }

  int resourceBound() {
    return maxResources;
  }

  Function<? super RefusedException, RefusalResponse> refusalHandler() {
    return refusalResponse;
  }

  IntPredicate errorStatus() {
    return errorStatuses;
  }

  @Override
  public String toString() {
    return "HttpInbound[entrance=" + entrance + ", maxResources=" + maxResources + "]";
  }

  /**
   * What an inbound adapter tells about an arriving request, for functions that derive the caller's
   * origin, the path template or the arguments from it (see {@link HttpInbound#origin}, {@link
   * HttpInbound#pathTemplate}, {@link HttpInbound#arguments}). Every adapter gives the same view
   * ({@link #of}); it is valid only while such a function runs.
   *
   * <pre>{@code
   * HttpInbound.of(engine).origin(request -> request.header("X-Api-Key").map(keys::owner).orElse(""));
   * }</pre>
   */
  public interface Request {

    /**
     * Returns the request method.
     *
     * @return the method, such as {@code GET}
     */
    String method();

    /**
     * Returns the request path as sent, without the query, not decoded.
     *
     * @return the raw path
     */
    String path();

    /**
     * Returns the first value of a request header.
     *
     * @param name the header name, case-insensitive
     * @return its first value, if present
     */
    Optional<String> header(String name);

    /**
     * Returns the address of the client (or of the last proxy), as a literal IP address.
     *
     * @return the remote address
     */
    String remoteAddress();

    /**
     * Returns the server's own object for the request, when it is of this type: the {@code
     * HttpServletRequest} under the servlet filter, the {@code HttpExchange} under the JDK server
     * filter (the exchange the filter received), so that a function can ask the framework what it
     * knows about the request.
     *
     * @param type the type asked for
     * @param <T> the type
     * @return the request object, if it is of that type
     */
    <T> Optional<T> unwrap(Class<T> type);

    /**
     * Returns the view of a server's own request object that an adapter hands to {@link
     * InboundGate#admit}: the method and raw path it read, and two functions that read a header's
     * first value and the client address from the object when a function of the settings asks
     * (pass method references or lambdas that capture nothing, so that nothing is allocated for
     * them per request).
     *
     * <pre>{@code
     * HttpInbound.Request view = HttpInbound.Request.of(servletRequest, servletRequest.getMethod(),
     *     servletRequest.getRequestURI(), HttpServletRequest::getHeader,
     *     HttpServletRequest::getRemoteAddr);
     * }</pre>
     *
     * @param request the server's request object, what {@link #unwrap} returns
     * @param method the request method
     * @param rawPath the path as sent, without the query, not decoded
     * @param header reads the first value of a header (name case-insensitive), null when absent
     * @param remoteAddress reads the client address as a literal IP address
     * @param <R> the server's request type
     * @return the view
     */
    static <R> Request of(R request, String method, String rawPath,
        BiFunction<? super R, String, @Nullable String> header,
        Function<? super R, String> remoteAddress) {
      return new ServerRequest<>(request, method, rawPath, header, remoteAddress);
    }
  }

  /**
   * The HTTP response an inbound adapter sends instead of running the handler when guard refuses a
   * request: a status, a body with its content type, and optionally a {@code Retry-After} wait.
   *
   * <p>{@link #of(RefusedException)} is the default: {@code 503 Service Unavailable} for an open
   * circuit breaker ({@link RefusedException.Breaker}), {@code 429 Too Many Requests} for every
   * other refusal, with a small JSON body:
   *
   * <pre>{@code
   * {"status":429,"error":"Too Many Requests","protection":"flow","resource":"GET /orders/{id}"}
   * }</pre>
   *
   * <p>Customize it with {@link HttpInbound#refusalResponse}:
   *
   * <pre>{@code
   * HttpInbound.of(engine).refusalResponse(refused -> refused instanceof RefusedException.Origin
   *     ? new HttpInbound.RefusalResponse(403, "text/plain", "forbidden", null)
   *     : HttpInbound.RefusalResponse.of(refused));
   * }</pre>
   *
   * @param status the HTTP status code, from 100 to 599
   * @param contentType the {@code Content-Type} of the body
   * @param body the body, sent as UTF-8; empty for none
   * @param retryAfter the wait to announce in {@code Retry-After} (whole seconds, rounded up), or
   *     null for no such header
   */
  public record RefusalResponse(
      int status, String contentType, String body, @Nullable Duration retryAfter) {

    /**
     * Validates the response.
     *
     * @param status the HTTP status code, from 100 to 599
     * @param contentType the {@code Content-Type} of the body
     * @param body the body, sent as UTF-8; empty for none
     * @param retryAfter the wait to announce in {@code Retry-After}, or null
     * @throws IllegalArgumentException if the status is not from 100 to 599, the content type is
     *     blank or the wait is negative
     */
    public RefusalResponse {
      if (status < 100 || status > 599) {
        throw Checks.invalid("status", status, "must be from 100 to 599");
      }
      Checks.notBlank("contentType", contentType);
      Objects.requireNonNull(body, "body");
      if (retryAfter != null) {
        Checks.notNegative("retryAfter", retryAfter);
      }
    }

    /**
     * Returns the default response for a refusal: 503 for a circuit breaker, 429 otherwise, with a
     * JSON body naming the protection and the resource, and the refusal's retry hint as {@code
     * Retry-After} where it knows one ({@link RefusedException#retryAfter()}): the time until an
     * open breaker lets a probe through, a QPS limit's next window bucket, room in a pacing queue, a
     * limited value's next token.
     *
     * @param refused the refusal
     * @return the response
     */
    public static RefusalResponse of(RefusedException refused) {
      int status = refused instanceof RefusedException.Breaker ? 503 : 429;
      String reason = status == 503 ? "Service Unavailable" : "Too Many Requests";
      String body = "{\"status\":" + status + ",\"error\":\"" + reason + "\",\"protection\":\""
          + protection(refused) + "\",\"resource\":\"" + jsonEscaped(refused.resource()) + "\"}";
      return new RefusalResponse(status, "application/json", body, retryHint(refused));
    }

    private static @Nullable Duration retryHint(RefusedException refused) {
      return refused.retryAfter().orElse(null);
    }

    /**
     * Returns the {@code Retry-After} header value: the wait in whole seconds, rounded up.
     *
     * @return the header value, or null when no wait is announced
     */
    @Nullable String retryAfterHeader() {
      Duration wait = retryAfter;
      if (wait == null) {
        return null;
      }
      long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
      return Long.toString(seconds);
    }

    private static String protection(RefusedException refused) {
      return RefusedException.Kind.of(refused).tag();
    }

    private static String jsonEscaped(String text) {
      StringBuilder out = new StringBuilder(text.length() + 8);
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (c < 0x20) {
          out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
      return out.toString();
    }
  }
}
