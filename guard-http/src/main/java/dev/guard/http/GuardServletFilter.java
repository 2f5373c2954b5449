package dev.guard.http;

import dev.guard.api.RefusedException;
import dev.guard.api.Entry;
import dev.guard.engine.GuardedResource;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
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
 * {@link AsyncListener}). It exits exactly once, also when the handler throws or the client goes
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

  private static final String ENTRY_ATTRIBUTE = GuardServletFilter.class.getName() + ".entry";
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
    if (req.getAttribute(ENTRY_ATTRIBUTE) != null) {
      redispatched(request, response, chain);
      return;
    }
    String path = routedPath(request);
    if (path == null) {
      answer(response, InboundGate.AMBIGUOUS_PATH, null);
      return;
    }
    RequestView view = new RequestView(request);
    GuardedResource handle = gate.handle(view, request.getMethod(), path);
    @Nullable Object[] args = gate.arguments(view);
    GuardedResource.ContextScope scope = handle.openContext();
    try {
      Entry entry;
      try {
        entry = handle.enterAsync(args);
      } catch (RefusedException refused) {
        answer(response, gate.refusal(refused), gate.rateLimitFields(handle, args));
        return;
      }
      request.setAttribute(ENTRY_ATTRIBUTE, entry);
      setRateLimitFields(response, gate.rateLimitFields(handle, args));
      run(request, response, chain, entry, handle, args);
    } finally {
      scope.close();
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

  private void run(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
      Entry entry, GuardedResource handle, @Nullable Object[] args)
      throws IOException, ServletException {
    try {
      chain.doFilter(request, response);
    } catch (RefusedException nested) {
      if (request.isAsyncStarted() || response.isCommitted()) {
        complete(request, response, entry, nested);
        throw nested;
      }
      response.reset();
      try {
        answer(response, gate.refusal(nested), gate.rateLimitFields(handle, args));
      } finally {
        entry.close(); // a refusal answered is no error of the request itself (docs/HTTP.md)
      }
      return;
    } catch (Throwable failure) {
      complete(request, response, entry, failure);
      throw failure;
    }
    complete(request, response, entry, null);
  }

  /**
   * A later dispatch of a request this filter admitted passes through. On the asynchronous
   * dispatch that carries an asynchronous handler's outcome, a refusal escaping the chain (the
   * handler's guarded call was refused) is answered as on the first dispatch, and the request
   * exits without an error when its cycle completes.
   */
  private void redispatched(HttpServletRequest request, HttpServletResponse response,
      FilterChain chain) throws IOException, ServletException {
    if (request.getDispatcherType() != DispatcherType.ASYNC
        || !(request.getAttribute(COMPLETION_ATTRIBUTE) instanceof Completion completion)) {
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
      completion.answeredRefusal();
      answer(response, gate.refusal(nested), null);
    }
  }

  /** Exits now, or when the asynchronous cycle the handler started completes. */
  private void complete(HttpServletRequest request, HttpServletResponse response, Entry entry,
      @Nullable Throwable failure) {
    if (request.isAsyncStarted()) {
      Completion completion = new Completion(gate, entry, response, failure);
      request.setAttribute(COMPLETION_ATTRIBUTE, completion);
      request.getAsyncContext().addListener(completion);
    } else {
      gate.finish(entry, response.getStatus(), failure);
    }
  }

  private static void setRateLimitFields(HttpServletResponse response,
      InboundGate.@Nullable RateLimitFields fields) {
    if (fields != null) {
      response.setHeader(InboundGate.RATE_LIMIT_POLICY, fields.policy());
      response.setHeader(InboundGate.RATE_LIMIT, fields.rateLimit());
    }
  }

  private static void answer(HttpServletResponse response, HttpInbound.RefusalResponse refusal,
      InboundGate.@Nullable RateLimitFields fields) throws IOException {
    byte[] body = refusal.body().getBytes(StandardCharsets.UTF_8);
    setRateLimitFields(response, fields);
    response.setStatus(refusal.status());
    String retryAfter = refusal.retryAfterHeader();
    if (retryAfter != null) {
      response.setHeader("Retry-After", retryAfter);
    }
    response.setContentType(refusal.contentType());
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  /** Exits a request's entry when its asynchronous cycle completes, following restarted cycles. */
  private static final class Completion implements AsyncListener {

    private final InboundGate gate;
    private final Entry entry;
    private final HttpServletResponse response;
    private volatile @Nullable Throwable failure;
    private volatile boolean refusal;

    Completion(InboundGate gate, Entry entry, HttpServletResponse response,
        @Nullable Throwable failure) {
      this.gate = gate;
      this.entry = entry;
      this.response = response;
      this.failure = failure;
    }

    /** The response is a refusal met by the asynchronous handler: no error of the request. */
    void answeredRefusal() {
      refusal = true;
    }

    @Override
    public void onComplete(AsyncEvent event) {
      if (refusal && failure == null) {
        entry.close();
      } else {
        gate.finish(entry, response.getStatus(), failure);
      }
    }

    @Override
    public void onError(AsyncEvent event) {
      Throwable error = event.getThrowable();
      if (error != null) {
        failure = error;
      }
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      // the container dispatches the timeout as an error and completes: onComplete exits
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      event.getAsyncContext().addListener(this);
    }
  }

  /** The servlet request as the settings' origin function sees it. */
  private static final class RequestView implements HttpInbound.Request {

    private final HttpServletRequest request;

    RequestView(HttpServletRequest request) {
      this.request = request;
    }

    @Override
    public String method() {
      return request.getMethod();
    }

    @Override
    public String path() {
      return request.getRequestURI();
    }

    @Override
    public Optional<String> header(String name) {
      return Optional.ofNullable(request.getHeader(name));
    }

    @Override
    public String remoteAddress() {
      return request.getRemoteAddr();
    }

    @Override
    public <T> Optional<T> unwrap(Class<T> type) {
      return type.isInstance(request) ? Optional.of(type.cast(request)) : Optional.empty();
    }
  }
}
