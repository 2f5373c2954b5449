package dev.guard.spring.boot.web;

import dev.guard.api.RefusedException;
import dev.guard.http.Admission;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers a {@link RefusedException} that escapes the handler of a request guard admitted (a
 * {@code @Guarded} method without a fallback was refused, and no {@code @ExceptionHandler} of the
 * application took it) as a refusal: 429, 503 for an open breaker, the {@code guard.web.refusal}
 * response, {@code Retry-After}, instead of Spring's 500. It is the last of the dispatcher's
 * exception resolvers, so the application's own handling comes first. The same holds in the
 * {@code ASYNC} dispatch that carries an asynchronous handler's failure. The request's call exits
 * without an error of its own: the refusal was the guarded method's ({@link
 * Admission#refusedInside}). A response already committed is left to Spring.
 */
final class RefusalResolver implements HandlerExceptionResolver, Ordered {

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  @Override
  public @Nullable ModelAndView resolveException(HttpServletRequest request,
      HttpServletResponse response, @Nullable Object handler, Exception failure) {
    if (!(failure instanceof RefusedException refused)
        || !(request.getAttribute(GuardMvcInterceptor.ADMISSION) instanceof Admission admission)
        || response.isCommitted()) {
      return null;
    }
    response.reset();
    try {
      answer(response, admission.refusedInside(refused));
    } catch (IOException broken) { // the client went away: an error of the request, answered
      admission.failed(broken);
    }
    return new ModelAndView(); // empty: handled, nothing to render
  }

  /** Writes a refusal: its status, header fields and body. */
  static void answer(HttpServletResponse response, Admission.Refusal refusal) throws IOException {
    byte[] body = refusal.body();
    refusal.headers(response::setHeader);
    response.setStatus(refusal.status());
    response.setContentType(refusal.response().contentType());
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
