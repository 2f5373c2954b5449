package dev.guard.spring.client;

import dev.guard.api.RefusedException;
import dev.guard.http.OutboundCall;
import dev.guard.http.OutboundGate;
import java.io.IOException;
import java.util.Objects;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Guards each call of a {@code RestClient} or {@code RestTemplate}: the call enters its resource
 * through an {@link OutboundGate} before the request is sent, and finishes when the response's
 * status and headers have arrived.
 *
 * <pre>{@code
 * OutboundGate gate = OutboundGate.of(HttpOutbound.of(engine));
 * RestClient payments = RestClient.builder()
 *     .requestInterceptor(GuardClientInterceptor.of(gate))
 *     .build();
 * payments.get().uri("https://payments.example.com/charges/7").retrieve().body(String.class);
 * // RefusedException when refused: nothing was sent
 * }</pre>
 *
 * <p>A refused call throws the {@link RefusedException} itself (not wrapped) from {@code
 * intercept}, so the client neither opens a connection nor writes a byte, and the refusal reaches
 * the caller unchanged. A response whose status the settings count as an error (5xx by default)
 * records an error naming the status and is still returned; an exception of the send (an I/O error,
 * a read timeout) is recorded and passed on unchanged. Reading the body afterwards is not part of
 * the call: its time and its failures are not counted. Put this interceptor last, nearest the
 * network, so that each retry of an interceptor before it is a call of its own. Thread-safe.
 */
public final class GuardClientInterceptor implements ClientHttpRequestInterceptor {

  private final OutboundGate gate;

  private GuardClientInterceptor(OutboundGate gate) {
    this.gate = gate;
  }

  /**
   * Returns an interceptor admitting calls through {@code gate}.
   *
   * @param gate the outbound admission, with its settings and resource table
   * @return the interceptor
   */
  public static GuardClientInterceptor of(OutboundGate gate) {
    return new GuardClientInterceptor(Objects.requireNonNull(gate, "gate"));
  }

  /**
   * Sends the request under its resource.
   *
   * @param request the request
   * @param body the request body
   * @param execution the rest of the chain, which sends the request
   * @return the response
   * @throws RefusedException if guard refused the call (nothing was sent)
   * @throws IOException if the send failed
   */
  @Override
  public ClientHttpResponse intercept(HttpRequest request, byte[] body,
      ClientHttpRequestExecution execution) throws IOException {
    OutboundCall call = gate.enter(request.getMethod().name(), request.getURI());
    ClientHttpResponse response;
    int status;
    try {
      response = execution.execute(request, body);
    } catch (Throwable failure) {
      call.fail(failure);
      throw failure;
    }
    try {
      status = response.getStatusCode().value();
    } catch (IOException | RuntimeException | Error failure) {
      call.fail(failure);
      response.close();
      throw failure;
    }
    call.finish(status);
    return response;
  }

  @Override
  public String toString() {
    return "GuardClientInterceptor[" + gate + "]";
  }
}
