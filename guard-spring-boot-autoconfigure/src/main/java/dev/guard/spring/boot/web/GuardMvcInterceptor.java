package dev.guard.spring.boot.web;

import dev.guard.http.Admission;
import dev.guard.http.HttpInbound;
import dev.guard.http.InboundGate;
import dev.guard.http.ServletCompletion;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.servlet.AsyncHandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;

/**
 * guard in Spring MVC's dispatcher: a handler interceptor, so that it runs after the dispatcher
 * chose the handler and recorded the pattern it matched ({@link
 * HandlerMapping#BEST_MATCHING_PATTERN_ATTRIBUTE}): a guarded request (one the include and exclude
 * patterns select) is admitted through guard-http's {@link InboundGate#admitDecoded} in its {@code
 * REQUEST} dispatch, named {@code METHOD + pattern}, or by its cleaned path when the handler is the
 * static-resource handler (which also serves every path no other handler maps, the 404s). A refused
 * request is answered here and its handler never runs.
 *
 * <p>The admitted call's context stays open on the request thread until the handler is done, and
 * the call finishes once: after the handler when the response is complete, or, for a handler that
 * started asynchronous processing, when the asynchronous cycle completes ({@link
 * ServletCompletion}). A refusal that escapes the handler is answered by {@link RefusalResolver}.
 */
final class GuardMvcInterceptor implements AsyncHandlerInterceptor {

  /** The request attribute that holds the admitted call, for the later steps and dispatches. */
  static final String ADMISSION = GuardMvcInterceptor.class.getName() + ".admission";
  /** The request attribute that carries the handler's pattern to the naming. */
  private static final String PATTERN = GuardMvcInterceptor.class.getName() + ".pattern";

  /** The answer to a path the container will not decode unambiguously: 400, no rate-limit fields. */
  @SuppressWarnings("NullAway") // the fields are @Nullable; NullAway does not read it from the jar
  private static final Admission.Refusal AMBIGUOUS =
      new Admission.Refusal(InboundGate.AMBIGUOUS_PATH, null);

  private final InboundGate gate;
  private final GuardWebProperties.Paths paths;

  GuardMvcInterceptor(HttpInbound inbound, GuardWebProperties.Paths paths) {
    this.gate = InboundGate.of(inbound.pathTemplate(GuardMvcInterceptor::template));
    this.paths = paths;
  }

  /** How many requests were named {@link HttpInbound#OVERFLOW_RESOURCE}. */
  long overflows() {
    return gate.overflows();
  }

  @Override
  public boolean preHandle(HttpServletRequest request, HttpServletResponse response,
      Object handler) throws IOException {
    if (request.getDispatcherType() != DispatcherType.REQUEST
        || request.getAttribute(ADMISSION) != null
        || !paths.guards(pathWithinApplication(request))) {
      return true;
    }
    String routed = routedPath(request);
    if (routed == null) {
      RefusalResolver.answer(response, AMBIGUOUS);
      return false;
    }
    if (!(handler instanceof ResourceHttpRequestHandler)) {
      Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
      if (pattern != null) {
        request.setAttribute(PATTERN, pattern instanceof PathPattern parsed
            ? parsed.getPatternString() : pattern.toString());
      }
    }
    String method = request.getMethod();
    HttpInbound.Request view = HttpInbound.Request.of(request, method, request.getRequestURI(),
        HttpServletRequest::getHeader, HttpServletRequest::getRemoteAddr);
    Admission admission = gate.admitDecoded(view, method, routed);
    Admission.Refusal refused = admission.refusal();
    if (refused != null) {
      RefusalResolver.answer(response, refused);
      return false;
    }
    request.setAttribute(ADMISSION, admission);
    admission.headers(response::setHeader);
    return true;
  }

  @Override
  public void afterConcurrentHandlingStarted(HttpServletRequest request,
      HttpServletResponse response, Object handler) {
    if (request.getDispatcherType() == DispatcherType.REQUEST
        && request.getAttribute(ADMISSION) instanceof Admission admission) {
      try {
        request.getAsyncContext().addListener(new ServletCompletion(admission, response));
      } finally {
        admission.close(); // the context, on this thread; the call goes on
      }
    }
  }

  @Override
  public void afterCompletion(HttpServletRequest request, HttpServletResponse response,
      Object handler, @Nullable Exception failure) {
    if (!(request.getAttribute(ADMISSION) instanceof Admission admission)) {
      return;
    }
    if (failure != null) {
      admission.failed(failure);
    }
    if (request.getDispatcherType() != DispatcherType.REQUEST) {
      return; // an asynchronous cycle's dispatch: its completion finishes the call
    }
    try {
      if (!request.isAsyncStarted()) {
        admission.finish(response.getStatus());
      }
    } finally {
      admission.close();
    }
  }

  /** The path within the application, as the dispatcher parsed it for its mappings. */
  private static PathContainer pathWithinApplication(HttpServletRequest request) {
    RequestPath path = ServletRequestPathUtils.hasParsedRequestPath(request)
        ? ServletRequestPathUtils.getParsedRequestPath(request)
        : RequestPath.parse(request.getRequestURI(), request.getContextPath());
    return path.pathWithinApplication();
  }

  /**
   * The decoded path the container routes the request by (context path, servlet path, path
   * info), or null when it is ambiguous.
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
    String inContext = pathInfo == null ? servletPath
        : servletPath.isEmpty() ? pathInfo : servletPath + pathInfo;
    String context = request.getContextPath();
    return context.isEmpty() ? inContext : context + inContext;
  }

  private static @Nullable String template(HttpInbound.Request request) {
    HttpServletRequest servlet = request.unwrap(HttpServletRequest.class).orElse(null);
    return servlet != null && servlet.getAttribute(PATTERN) instanceof String pattern
        ? pattern : null;
  }
}
