package dev.guard.gateway;

import dev.guard.http.Admission;
import dev.guard.http.HttpInbound;
import dev.guard.http.InboundGate;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * The {@code Guard} gateway filter of one route configuration: a request enters its route's
 * resource (the route id) and then, nested, the resource of each API group its path matches;
 * a refusal by any of them answers the request without routing it, and gives back what the
 * resources entered before granted. Admission, naming bounds, the refusal response and rate-limit
 * fields are guard-http's one inbound admission ({@link InboundGate#admitNamed}); this filter
 * reads the exchange and writes the answer. Every entry exits exactly once, innermost first, when
 * the routed exchange completes, fails or is cancelled (a client that disconnects); a failure or
 * a 5xx response counts as an error for the route's circuit breakers.
 */
final class GuardGatewayFilter implements GatewayFilter {

  /** The resource of a request the gateway did not route (no route attribute): not expected. */
  static final String NO_ROUTE = "{gateway without route}";

  private final InboundGate gate;
  private final ApiGroups groups;
  private final TrustedProxies proxies;
  private final String description;

  GuardGatewayFilter(HttpInbound inbound, List<KeySource> keys, ApiGroups groups,
      TrustedProxies proxies) {
    KeySource[] sources = keys.toArray(KeySource[]::new);
    this.gate = InboundGate.of(keys.isEmpty() ? inbound : inbound.arguments(request ->
        arguments(request, sources)));
    this.groups = groups;
    this.proxies = proxies;
    this.description = "Guard" + keys;
  }

  private static @Nullable Object[] arguments(HttpInbound.Request request, KeySource[] sources) {
    ServerWebExchange exchange = request.unwrap(ServerWebExchange.class).orElseThrow();
    Object[] args = new Object[sources.length];
    for (int i = 0; i < args.length; i++) {
      args[i] = sources[i].valueOf(exchange);
    }
    return args;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    ServerHttpResponse response = exchange.getResponse();
    HttpInbound.Request view = HttpInbound.Request.of(exchange, request.getMethod().name(),
        request.getURI().getRawPath(), (in, name) -> in.getRequest().getHeaders().getFirst(name),
        in -> proxies.clientAddress(in.getRequest()));
    List<String> names = resources(exchange);
    List<Admission> admitted = new ArrayList<>(names.size());
    for (String name : names) {
      Admission admission = gate.admitNamed(view, name);
      admission.close(); // the exchange goes on on other threads: no context on this one
      Admission.Refusal refused = admission.refusal();
      if (refused != null) {
        finish(admitted, -1); // nothing was routed: no outcome for the resources entered
        return answer(response, refused);
      }
      admitted.add(admission);
    }
    HttpHeaders headers = response.getHeaders();
    for (Admission admission : admitted) { // the route's fields, else the first group's
      admission.headers((name, value) -> {
        if (!headers.containsHeader(name)) {
          headers.set(name, value);
        }
      });
    }
    return chain.filter(exchange)
        .doOnError(failure -> admitted.forEach(admission -> admission.failed(failure)))
        .doFinally(signal -> finish(admitted,
            signal == SignalType.CANCEL ? -1 : status(response)));
  }

  /** The route's resource, then each matching group's. */
  private List<String> resources(ServerWebExchange exchange) {
    Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
    String routeId = route == null ? NO_ROUTE : route.getId();
    List<String> matching = groups.matching(exchange.getRequest().getPath().pathWithinApplication());
    if (matching.isEmpty()) {
      return List.of(routeId);
    }
    List<String> names = new ArrayList<>(1 + matching.size());
    names.add(routeId);
    names.addAll(matching);
    return names;
  }

  /** Exits the entries, innermost first; each exits once whatever calls this. */
  private static void finish(List<Admission> admitted, int status) {
    for (int i = admitted.size() - 1; i >= 0; i--) {
      admitted.get(i).finish(status);
    }
  }

  private static int status(ServerHttpResponse response) {
    HttpStatusCode status = response.getStatusCode();
    return status == null ? 200 : status.value();
  }

  private static Mono<Void> answer(ServerHttpResponse response, Admission.Refusal refusal) {
    response.setStatusCode(HttpStatusCode.valueOf(refusal.status()));
    HttpHeaders headers = response.getHeaders();
    refusal.headers(headers::set);
    headers.setContentType(MediaType.parseMediaType(refusal.response().contentType()));
    byte[] body = refusal.body();
    headers.setContentLength(body.length);
    DataBuffer buffer = response.bufferFactory().wrap(body);
    return response.writeWith(Mono.just(buffer));
  }

  @Override
  public String toString() {
    return description;
  }
}
