package dev.guard.http;

import dev.guard.api.RefusedException;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * A Jakarta Servlet 6 filter that protects every request of a web application with guard, as
 * {@link HttpInbound} describes: the request enters its resource ({@code GET /orders/{id}}) as an
 * inbound call in the application's context with the caller's origin, or is answered with the
 * refusal response without reaching the servlet.
 *
 * <pre>{@code
 * HttpInbound inbound = HttpInbound.of(engine).entrance("shop").originHeader("X-Caller");
 * servletContext.addFilter("guard", GuardServletFilter.of(inbound))
 *     .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
 * }</pre>
 *
 * <p>The resource's path is the container's own decoded, normalized view of the request (context
 * path, servlet path and path info), which is what it routes by; a path the container will not
 * decode unambiguously is answered 400 before the chain runs (see {@code docs/HTTP.md}, "Which
 * path").
 *
 * <p>The request's entry exits when its response is complete: when the filter chain returns, or,
 * for a request put into asynchronous mode, when the asynchronous cycle completes (through an
 * {@link ServletCompletion}). It exits exactly once, also when the handler throws or the client goes
 * away. An exception escaping the chain, and a response status the settings count as an error
 * (5xx by default), are recorded on the entry for statistics and circuit breakers. A {@link
 * RefusedException} escaping the chain (a guarded call inside the handler was refused) is answered
 * with the refusal response if the response is not committed yet.
 *
 * <p>Register it for the {@code REQUEST} dispatch, and for {@code ASYNC} when asynchronous
 * handlers may let a refusal escape: later dispatches of a request it has already seen pass
 * through, except that a {@link RefusedException} escaping its {@code ASYNC} dispatch is answered
 * as a refusal. Thread-safe; one instance serves the whole application.
 */
@SuppressWarnings("exports") // the Servlet API is the container's; users compile against it anyway
public final class GuardServletFilter implements Filter {

  private static final String ADMISSION_ATTRIBUTE =
      GuardServletFilter.class.getName() + ".admission";
  private static final String COMPLETION_ATTRIBUTE =
      GuardServletFilter.class.getName() + ".completion";

  private final InboundGate gate;

  private GuardServletFilter(InboundGate gate) {
    this.gate = gate;
  }

  /**
   * Creates a filter with these settings.
   *
   * @param settings the inbound settings
   * @return the filter
   */
  public static GuardServletFilter of(HttpInbound settings) {
    return new GuardServletFilter(InboundGate.of(settings));
  }

  /**
   * Returns how many requests this filter mapped to {@link HttpInbound#OVERFLOW_RESOURCE} because
   * it had created its maximum number of resources.
   *
   * @return the count
   */
  public long overflows() {
    return gate.overflows();
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    if (!(req instanceof HttpServletRequest request) || !(res instanceof HttpServletResponse response)) {
      chain.doFilter(req, res);
      return;
    }
    if (req.getAttribute(ADMISSION_ATTRIBUTE) != null) {
      redispatched(request, response, chain);
      return;
    }
    HttpInbound.Request view = HttpInbound.Request.of(request, request.getMethod(),
        request.getRequestURI(), HttpServletRequest::getHeader, HttpServletRequest::getRemoteAddr);
    Admission admission = gate.admitRouted(view, request.getMethod(), routedPath(request));
    Admission.Refusal refused = admission.refusal();
    if (refused != null) {
      answer(response, refused);
      return;
    }
    try {
      request.setAttribute(ADMISSION_ATTRIBUTE, admission);
      admission.headers(response::setHeader);
      run(request, response, chain, admission);
    } finally {
      admission.close();
    }
  }

  /**
   * The path the container routes the request by: its decoded, normalized view (context path,
   * servlet path, path info), or null when it is ambiguous or the container will not say.
   */
  private static @Nullable String routedPath(HttpServletRequest request) {
    String servletPath;
    String pathInfo;
    try {
      servletPath = request.getServletPath();
      pathInfo = request.getPathInfo();
    } catch (IllegalArgumentException ambiguous) { // a container that decodes lazily refuses here
      return null;
    }
    String context = request.getServletContext().getContextPath();
    String inContext = pathInfo == null ? servletPath
        : servletPath.isEmpty() ? pathInfo : servletPath + pathInfo;
    return RoutedPath.ofDecoded(context.isEmpty() ? inContext : context + inContext);
  }

  private static void run(HttpServletRequest request, HttpServletResponse response,
      FilterChain chain, Admission admission) throws IOException, ServletException {
    try {
      chain.doFilter(request, response);
    } catch (RefusedException nested) {
      if (request.isAsyncStarted() || response.isCommitted()) {
        admission.failed(nested);
        complete(request, response, admission);
        throw nested;
      }
      response.reset();
      try {
        answer(response, admission.refusedInside(nested));
      } finally {
        admission.finish(response.getStatus()); // an answered refusal: no error (docs/HTTP.md)
      }
      return;
    } catch (Throwable failure) {
      admission.failed(failure);
      complete(request, response, admission);
      throw failure;
    }
    complete(request, response, admission);
  }

  /**
   * A later dispatch of a request this filter admitted passes through. On the asynchronous
   * dispatch that carries an asynchronous handler's outcome, a refusal escaping the chain (the
   * handler's guarded call was refused) is answered as on the first dispatch, without rate-limit
   * fields, and the request exits without an error when its cycle completes.
   */
  private static void redispatched(HttpServletRequest request, HttpServletResponse response,
      FilterChain chain) throws IOException, ServletException {
    if (request.getDispatcherType() != DispatcherType.ASYNC
        || !(request.getAttribute(COMPLETION_ATTRIBUTE) instanceof ServletCompletion completion)) {
      chain.doFilter(request, response);
      return;
    }
    try {
      chain.doFilter(request, response);
    } catch (RefusedException nested) {
      if (response.isCommitted()) {
        throw nested;
      }
      response.reset();
      Admission.Refusal refusal = completion.admission().refusedInside(nested);
      answer(response, new Admission.Refusal(refusal.response(), null)); // no rate-limit fields
    }
  }

  /** Finishes now, or when the asynchronous cycle the handler started completes. */
  private static void complete(HttpServletRequest request, HttpServletResponse response,
      Admission admission) {
    if (request.isAsyncStarted()) {
      ServletCompletion completion = new ServletCompletion(admission, response);
      request.setAttribute(COMPLETION_ATTRIBUTE, completion);
      request.getAsyncContext().addListener(completion);
    } else {
      admission.finish(response.getStatus());
    }
  }

  private static void answer(HttpServletResponse response, Admission.Refusal refusal)
      throws IOException {
    byte[] body = refusal.body();
    refusal.headers(response::setHeader);
    response.setStatus(refusal.status());
    response.setContentType(refusal.response().contentType());
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
