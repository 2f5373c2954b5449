package dev.guard.spring.boot.web;

import dev.guard.api.RefusedException;
import dev.guard.http.GuardServletFilter;
import dev.guard.http.HttpInbound;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The Spring MVC request filter: a guarded request (one the include and exclude patterns select)
 * goes through guard-http's {@link GuardServletFilter}, with its resource named after the pattern
 * of the handler that will serve it ({@code GET /orders/{id}}), found before the handler runs (see
 * {@link HandlerPatterns}); a request no handler maps is named by its cleaned path, as guard-http
 * does. Everything else (context and origin, refusal, rate-limit headers, errors, exit when the
 * response completes, asynchronous requests) is the servlet filter's.
 *
 * <p>That includes a {@link RefusedException} that escapes a controller (a {@code @Guarded} method
 * without a fallback was refused, and no {@code @ExceptionHandler} of the application took it):
 * Spring's dispatcher hands it on wrapped in a {@link ServletException}, which this filter unwraps
 * so that the servlet filter answers it as a refusal (429, 503 for an open breaker,
 * {@code Retry-After}) instead of the container's 500.
 */
final class GuardMvcFilter implements Filter {

  /** The request attribute that carries the handler lookup from this filter to the naming. */
  private static final String LOOKUP = GuardMvcFilter.class.getName() + ".lookup";

  private final GuardWebProperties.Paths paths;
  private final HandlerPatterns patterns;
  private final GuardServletFilter guard;

  GuardMvcFilter(HttpInbound inbound, GuardWebProperties.Paths paths, HandlerPatterns patterns) {
    this.paths = paths;
    this.patterns = patterns;
    this.guard = GuardServletFilter.of(inbound.pathTemplate(this::template));
  }

  /** The servlet filter this one delegates to, for its overflow count. */
  GuardServletFilter guard() {
    return guard;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    if (!(req instanceof HttpServletRequest request)) {
      chain.doFilter(req, res);
      return;
    }
    if (request.getAttribute(LOOKUP) != null) { // the asynchronous dispatch of a guarded request
      guard.doFilter(req, res, (in, out) -> unwrapRefusal(chain, in, out));
      return;
    }
    HandlerPatterns.Lookup lookup;
    try {
      lookup = new HandlerPatterns.Lookup(request);
    } catch (IllegalArgumentException unparsable) { // the servlet filter answers an ambiguous path
      guard.doFilter(req, res, chain);
      return;
    }
    if (!paths.guards(lookup.pathWithinApplication())) {
      chain.doFilter(req, res);
      return;
    }
    request.setAttribute(LOOKUP, lookup);
    guard.doFilter(req, res, (in, out) -> unwrapRefusal(chain, in, out));
  }

  /** Runs the rest of the chain; a refusal the dispatcher wrapped escapes as itself. */
  private static void unwrapRefusal(FilterChain chain, ServletRequest req, ServletResponse res)
      throws IOException, ServletException {
    try {
      chain.doFilter(req, res);
    } catch (ServletException wrapped) {
      if (wrapped.getCause() instanceof RefusedException refused) {
        throw refused;
      }
      throw wrapped;
    }
  }

  private @Nullable String template(HttpInbound.Request request) {
    HttpServletRequest servlet = request.unwrap(HttpServletRequest.class).orElse(null);
    if (servlet == null || !(servlet.getAttribute(LOOKUP) instanceof HandlerPatterns.Lookup lookup)) {
      return null;
    }
    return patterns.patternOf(lookup);
  }
}
