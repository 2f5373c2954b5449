package dev.guard.http;

/**
 * The error the HTTP adapters record on an entry whose response had an error status (by default
 * a 5xx), so that statistics and circuit breakers count the call as failed although no exception
 * was thrown. It is recorded, never thrown to the caller. Which statuses count is chosen with
 * {@code errorStatuses} on {@link HttpInbound} and {@link HttpOutbound}:
 *
 * <pre>{@code
 * HttpOutbound.of(engine).errorStatuses(status -> status == 502 || status == 503 || status == 504);
 * }</pre>
 *
 * <p>No stack trace is captured.
 */
final class HttpStatusException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The response's status code (part of the serialized form). */
  private final int status;

  /**
   * Creates the error for a response status.
   *
   * @param resource the resource whose call answered it
   * @param status the HTTP status code
   */
  HttpStatusException(String resource, int status) {
    super("'" + resource + "' answered HTTP " + status, null, false, false);
    this.status = status;
  }

  /**
   * Returns the response's status code.
   *
   * @return the status
   */
  int status() {
    return status;
  }
}
