package dev.guard.spring.boot.web;

import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.http.HttpInbound;
import dev.guard.spring.boot.InvalidGuardSettingsException;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The {@code guard.web.*} properties: how the Spring MVC interceptor and the WebFlux filter protect the
 * application's requests. Checked when the context starts; a bad value fails the start-up naming
 * its property.
 *
 * <pre>{@code
 * guard.web.exclude=/actuator/**
 * guard.web.origin-header=X-Caller
 * guard.web.argument-headers=X-Api-Key
 * guard.web.rate-limit-headers=true
 * guard.web.refusal.status=503
 * }</pre>
 *
 * @param enabled whether the filter is registered (default true)
 * @param include the request paths the filter guards, as Spring path patterns matched against the
 *     path within the application (default {@code /**})
 * @param exclude the request paths it leaves alone, even when included (default none)
 * @param entrance the context (entrance) every request runs in (default {@code http})
 * @param originHeader the request header that names the caller's origin (default none: every
 *     caller has the empty origin)
 * @param argumentHeaders the request headers whose values are a request's arguments, for
 *     per-value rules, in this order ({@link HttpInbound#argumentHeaders}; default none)
 * @param maxResources the most resources the filter creates; further names share {@code {inbound
 *     overflow}} (default 500)
 * @param rateLimitHeaders whether responses carry the {@code RateLimit-Policy} and {@code
 *     RateLimit} fields of the limiting QPS rule (default false)
 * @param filterOrder the WebFlux filter's order (default {@code Ordered.HIGHEST_PRECEDENCE + 10});
 *     Spring MVC has an interceptor inside the dispatcher instead
 * @param refusal the response to a refused request
 */
@ConfigurationProperties("guard.web")
public record GuardWebProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("/**") List<String> include,
    @DefaultValue List<String> exclude,
    @DefaultValue(HttpInbound.DEFAULT_ENTRANCE) String entrance,
    @Nullable String originHeader,
    @DefaultValue List<String> argumentHeaders,
    @DefaultValue("500") int maxResources,
    @DefaultValue("false") boolean rateLimitHeaders,
    @DefaultValue("-2147483638") int filterOrder,
    @DefaultValue Refusal refusal) {

  /**
   * Checks the values, naming the property of a bad one.
   *
   * @param enabled whether the filter is registered
   * @param include the guarded path patterns
   * @param exclude the path patterns left alone
   * @param entrance the entrance's name
   * @param originHeader the origin's header, or null
   * @param argumentHeaders the arguments' headers
   * @param maxResources the resource bound
   * @param rateLimitHeaders whether to send the rate-limit fields
   * @param filterOrder the WebFlux filter's order
   * @param refusal the refusal response
   * @throws InvalidGuardSettingsException if a pattern does not parse, a name is blank or a number
   *     is out of range
   */
  public GuardWebProperties {
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    check(include.isEmpty(), "guard.web.include", include, "must name at least one pattern");
    patterns("guard.web.include", include);
    patterns("guard.web.exclude", exclude);
    check(entrance.isBlank(), "guard.web.entrance", "'" + entrance + "'", "must not be blank");
    check(originHeader != null && originHeader.isBlank(), "guard.web.origin-header",
        "'" + originHeader + "'", "must not be blank");
    argumentHeaders = List.copyOf(argumentHeaders);
    check(argumentHeaders.stream().anyMatch(String::isBlank), "guard.web.argument-headers",
        argumentHeaders, "must not hold a blank name");
    check(maxResources <= 0, "guard.web.max-resources", maxResources, "must be > 0");
  }

  /**
   * The {@code guard.web.refusal.*} properties: what a refused request is answered with. Unset,
   * the default of guard-http: 429 (503 for an open circuit breaker) with a small JSON body naming
   * the protection and the resource, and {@code Retry-After} where the wait is known.
   *
   * @param status the status of every refusal, from 400 to 599 (default: 429, 503 for an open
   *     circuit breaker)
   * @param body the body, sent as UTF-8 (default: the JSON body, with the status and its reason)
   * @param contentType the body's content type (default {@code application/json}, or {@code
   *     text/plain} for a body given here)
   * @param retryAfter whether to send {@code Retry-After} when the wait is known (default true)
   */
  public record Refusal(@Nullable Integer status, @Nullable String body,
      @Nullable String contentType, @DefaultValue("true") boolean retryAfter) {

    /**
     * Checks the values, naming the property of a bad one.
     *
     * @param status the status, or null for the default
     * @param body the body, or null for the default
     * @param contentType the content type, or null for the default
     * @param retryAfter whether to send {@code Retry-After}
     * @throws InvalidGuardSettingsException if the status is not from 400 to 599 or the content type
     *     is blank
     */
    public Refusal {
      check(status != null && (status < 400 || status > 599), "guard.web.refusal.status",
          status, "must be from 400 to 599");
      check(contentType != null && contentType.isBlank(), "guard.web.refusal.content-type",
          "'" + contentType + "'", "must not be blank");
    }

    /**
     * Returns the response for a refusal under these properties.
     *
     * @param refused the refusal
     * @return the response
     */
    public HttpInbound.RefusalResponse responseTo(RefusedException refused) {
      HttpInbound.RefusalResponse standard = HttpInbound.RefusalResponse.of(refused);
      int code = status == null ? standard.status() : status;
      String text = body;
      String type = contentType;
      if (text == null) {
        text = code == standard.status() ? standard.body() : standard.body()
            .replace("\"status\":" + standard.status(), "\"status\":" + code)
            .replace(reason(standard.status()), reason(code));
        type = type == null ? standard.contentType() : type;
      } else if (type == null) {
        type = "text/plain";
      }
      return new HttpInbound.RefusalResponse(code, type, text,
          retryAfter ? standard.retryAfter() : null);
    }

    private static String reason(int code) {
      HttpStatus known = HttpStatus.resolve(code);
      return known == null ? "Error" : known.getReasonPhrase();
    }
  }

  /**
   * Returns the inbound settings these properties describe, on an engine.
   *
   * @param engine the application's engine
   * @return the settings; a filter adds the route template to them
   */
  public HttpInbound inbound(GuardEngine engine) {
    HttpInbound inbound = HttpInbound.of(engine).entrance(entrance).maxResources(maxResources)
        .rateLimitHeaders(rateLimitHeaders).refusalResponse(refusal::responseTo);
    if (!argumentHeaders.isEmpty()) {
      inbound = inbound.argumentHeaders(argumentHeaders.toArray(String[]::new));
    }
    String header = originHeader;
    return header == null ? inbound : inbound.originHeader(header);
  }

  /**
   * Returns the include and exclude patterns, parsed, for a filter to keep.
   *
   * @return the guarded paths
   */
  public Paths paths() {
    return new Paths(patterns("guard.web.include", include),
        patterns("guard.web.exclude", exclude));
  }

  /**
   * The request paths a filter guards: those that match an include pattern and no exclude
   * pattern. Immutable and thread-safe.
   */
  public static final class Paths {

    private final List<PathPattern> include;
    private final List<PathPattern> exclude;

    Paths(List<PathPattern> include, List<PathPattern> exclude) {
      this.include = include;
      this.exclude = exclude;
    }

    /**
     * Tells whether a request path is guarded.
     *
     * @param path the path within the application
     * @return whether it matches an include pattern and no exclude pattern
     */
    public boolean guards(PathContainer path) {
      return matchesAny(include, path) && !matchesAny(exclude, path);
    }

    private static boolean matchesAny(List<PathPattern> patterns, PathContainer path) {
      for (int i = 0; i < patterns.size(); i++) {
        if (patterns.get(i).matches(path)) {
          return true;
        }
      }
      return false;
    }
  }

  private static List<PathPattern> patterns(String property, List<String> values) {
    PathPatternParser parser = PathPatternParser.defaultInstance;
    return values.stream().map(value -> {
      check(value.isBlank(), property, "'" + value + "'", "must not hold a blank pattern");
      try {
        return parser.parse(value.trim());
      } catch (RuntimeException bad) {
        throw new InvalidGuardSettingsException(List.of(property + ": must hold path patterns, "
            + "was '" + value + "': " + bad.getMessage()), bad);
      }
    }).toList();
  }

  private static void check(boolean bad, String property, @Nullable Object value, String must) {
    if (bad) {
      throw InvalidGuardSettingsException.of(property, must + ", was " + value);
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "GuardWebProperties[include=%s, exclude=%s, entrance=%s]",
        include, exclude, entrance);
  }
}
