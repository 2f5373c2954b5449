package dev.guard.http;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Finishes a servlet request's {@link Admission} when the asynchronous cycle its handler started
 * completes, following restarts of the cycle: with the response's status, or with the error the
 * container reports. For servlet adapters (the servlet filter, the Spring MVC interceptor) whose
 * handler returned with {@code request.isAsyncStarted()}.
 *
 * <pre>{@code
 * if (request.isAsyncStarted()) {
 *   request.getAsyncContext().addListener(new ServletCompletion(admission, response));
 * } else {
 *   admission.finish(response.getStatus());
 * }
 * }</pre>
 *
 * @param admission the request's admitted call
 * @param response the response whose status finishes it
 */
public record ServletCompletion(Admission admission, HttpServletResponse response)
    implements AsyncListener {

  /**
   * Finishes the call with the response's status.
   *
   * @param event the container's event
   */
  @Override
  public void onComplete(AsyncEvent event) {
    admission.finish(response.getStatus());
  }

  /**
   * Records the container's error; the cycle then completes and finishes the call.
   *
   * @param event the container's event
   */
  @Override
  public void onError(AsyncEvent event) {
    Throwable error = event.getThrowable();
    if (error != null) {
      admission.failed(error);
    }
  }

  /**
   * Does nothing: the container dispatches a timeout as an error and then completes.
   *
   * @param event the container's event
   */
  @Override
  public void onTimeout(AsyncEvent event) {
    // onError and onComplete follow
  }

  /**
   * Follows a restarted cycle.
   *
   * @param event the container's event
   */
  @Override
  public void onStartAsync(AsyncEvent event) {
    event.getAsyncContext().addListener(this);
  }
}
