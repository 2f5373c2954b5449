package dev.guard.http;

import dev.guard.api.RefusedException;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Sends requests through an {@link HttpClient}, each call protected by guard; made by {@link
 * HttpOutbound#decorate}. A refused call throws {@link RefusedException} (or, from {@link
 * #sendAsync}, completes its future with it) before any byte is sent.
 *
 * <pre>{@code
 * GuardedHttpClient client = HttpOutbound.of(engine).decorate(HttpClient.newHttpClient());
 * try {
 *   HttpResponse<String> response = client.send(request, BodyHandlers.ofString());
 * } catch (RefusedException refused) {
 *   // the host's limit or breaker refused the call: nothing was sent
 * }
 * }</pre>
 *
 * <p>A call's entry exits when {@link #send} returns or throws, or when the future of {@link
 * #sendAsync} completes (before the returned future completes). A response whose status the
 * settings count as an error (5xx by default) records an error naming the status and is still
 * returned; an exception of the send (an I/O error, a timeout, a failing body handler) is recorded
 * and passed on unchanged. An interrupt is not counted as an error. Cancelling the returned future
 * exits the entry at once, without an error, and cancels the send. Each call is admitted and
 * finished through an {@link OutboundGate}, as every outbound adapter's is. Thread-safe.
 */
public final class GuardedHttpClient {

  private final HttpClient client;
  private final OutboundGate gate;

  GuardedHttpClient(HttpClient client, OutboundGate gate) {
    this.client = client;
    this.gate = gate;
  }

  /**
   * Sends a request under its resource and waits for the response, like {@link
   * HttpClient#send}.
   *
   * @param request the request
   * @param handler the response body handler
   * @param <T> the response body type
   * @return the response
   * @throws RefusedException if guard refused the call (nothing was sent)
   * @throws IOException if the send failed
   * @throws InterruptedException if the thread was interrupted while waiting
   */
  public <T extends @Nullable Object> HttpResponse<T> send(HttpRequest request,
      HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
    OutboundCall call = gate.enter(request.method(), request.uri());
    HttpResponse<T> response;
    try {
      response = client.send(request, handler);
    } catch (Throwable failure) {
      call.fail(failure); // an interrupt exits without an error
      throw failure;
    }
    call.finish(response.statusCode());
    return response;
  }

  /**
   * Sends a request under its resource asynchronously, like {@link HttpClient#sendAsync}. A
   * refusal gives a future failed with the {@link RefusedException}.
   *
   * @param request the request
   * @param handler the response body handler
   * @param <T> the response body type
   * @return the response's future
   */
  @SuppressWarnings("FutureReturnValueIgnored") // the dependent stages only exit and forward
  public <T extends @Nullable Object> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    OutboundCall call;
    try {
      call = gate.enter(request.method(), request.uri());
    } catch (RefusedException refused) {
      return CompletableFuture.failedFuture(refused);
    }
    CompletableFuture<HttpResponse<T>> sent;
    try {
      sent = client.sendAsync(request, handler);
    } catch (RuntimeException | Error failure) {
      call.fail(failure);
      throw failure;
    }
    CompletableFuture<HttpResponse<T>> result = new CompletableFuture<>();
    sent.whenComplete((response, failure) -> {
      if (failure != null) {
        call.fail(failure); // nothing when the caller cancelled first
        result.completeExceptionally(failure);
      } else {
        call.finish(response.statusCode());
        result.complete(response);
      }
    });
    result.whenComplete((response, failure) -> {
      if (result.isCancelled()) {
        call.cancel();
        sent.cancel(true);
      }
    });
    return result;
  }

  /**
   * Returns the client this one sends through.
   *
   * @return the decorated client
   */
  public HttpClient client() {
    return client;
  }

  /**
   * Returns how many calls this client mapped to {@link HttpOutbound#OVERFLOW_RESOURCE} because
   * it had created its maximum number of resources.
   *
   * @return the count
   */
  public long overflows() {
    return gate.overflows();
  }

  @Override
  public String toString() {
    return "GuardedHttpClient[" + gate + "]";
  }
}
