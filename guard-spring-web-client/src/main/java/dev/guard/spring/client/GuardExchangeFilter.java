package dev.guard.spring.client;

import dev.guard.api.RefusedException;
import dev.guard.http.OutboundCall;
import dev.guard.http.OutboundGate;
import java.util.Objects;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * Guards each exchange of a {@code WebClient}: every subscription to the exchange enters its
 * resource through an {@link OutboundGate} before the request is sent, and the call finishes when
 * the response's status and headers arrive.
 *
 * <pre>{@code
 * OutboundGate gate = OutboundGate.of(HttpOutbound.of(engine));
 * WebClient payments = WebClient.builder().filter(GuardExchangeFilter.of(gate)).build();
 * payments.get().uri("https://payments.example.com/charges/7").retrieve().bodyToMono(String.class)
 *     .onErrorResume(RefusedException.class, refused -> fallback());   // nothing was sent
 * }</pre>
 *
 * <p>A refused exchange fails with the {@link RefusedException} itself, at subscription, and
 * sends nothing. A response whose status the settings count as an error (5xx by default) records
 * an error naming the status and is still emitted; an error of the exchange (a connection
 * failure, the connector's response timeout) is recorded and passed on unchanged. A subscriber
 * that cancels before the response (including {@code timeout()} and {@code take}) ends the call
 * at once, without an error; one that cancels afterwards changes nothing. Each call is finished
 * exactly once, whichever comes first. The response body is not part of the call: streaming it
 * is not counted in the call's time or concurrency, and its failures are not recorded. Each
 * subscription (each retry) is a call of its own. Thread-safe.
 */
public final class GuardExchangeFilter implements ExchangeFilterFunction {

  private final OutboundGate gate;

  private GuardExchangeFilter(OutboundGate gate) {
    this.gate = gate;
  }

  /**
   * Returns a filter admitting exchanges through {@code gate}.
   *
   * @param gate the outbound admission, with its settings and resource table
   * @return the filter
   */
  public static GuardExchangeFilter of(OutboundGate gate) {
    return new GuardExchangeFilter(Objects.requireNonNull(gate, "gate"));
  }

  /**
   * Returns the exchange of {@code request} under its resource: entered on each subscription,
   * failing with the {@link RefusedException} when guard refuses it.
   *
   * @param request the request
   * @param next the rest of the chain, which sends the request
   * @return the guarded exchange
   */
  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    return Mono.defer(() -> exchange(request, next));
  }

  private Mono<ClientResponse> exchange(ClientRequest request, ExchangeFunction next) {
    OutboundCall call;
    try {
      call = gate.enter(request.method().name(), request.url());
    } catch (RefusedException refused) {
      return Mono.error(refused);
    }
    Mono<ClientResponse> sent;
    try {
      sent = next.exchange(request);
    } catch (RuntimeException | Error failure) {
      call.fail(failure);
      throw failure;
    }
    return sent
        .doOnNext(response -> call.finish(response.statusCode().value()))
        .doOnError(call::fail)
        .doFinally(signal -> call.cancel()); // cancelled, or completed empty: no outcome
  }

  @Override
  public String toString() {
    return "GuardExchangeFilter[" + gate + "]";
  }
}
