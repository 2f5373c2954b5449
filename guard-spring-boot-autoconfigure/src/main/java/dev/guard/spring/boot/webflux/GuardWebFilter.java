package dev.guard.spring.boot.webflux;

import dev.guard.api.RefusedException;
import dev.guard.http.Admission;
import dev.guard.http.HttpInbound;
import dev.guard.http.InboundGate;
import dev.guard.spring.boot.web.GuardWebProperties;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebExchangeDecorator;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The WebFlux request filter: a guarded request (one the include and exclude patterns select)
 * enters the resource named after the pattern of the route that will serve it ({@code GET
 * /orders/{id}}, from an annotated controller's mapping or a router function), found before the
 * handler runs by asking the dispatcher's handler mappings in its order; a request no route
 * matches is named by its cleaned path. Naming, context and origin, the refusal response, the
 * rate-limit header fields and the recording of errors are guard-http's one admission ({@link
 * InboundGate#admit}), as for the servlet filters; this filter only reads the exchange and writes
 * the answer.
 *
 * <p>The entry is taken when the filter's publisher is subscribed and exits exactly once, when the
 * rest of the chain completes, fails or is cancelled; an error recorded then counts for
 * statistics and circuit breakers, and so does a status the settings count as one (5xx). A
 * {@link RefusedException} the handler signals (a guarded call inside it was refused) is answered
 * with the refusal response when the response has not started.
 */
final class GuardWebFilter implements WebFilter, Ordered {

  /** The exchange attribute that carries the route's pattern from the lookup to the naming. */
  static final String PATTERN = GuardWebFilter.class.getName() + ".pattern";

  private final InboundGate gate;
  private final GuardWebProperties.Paths paths;
  private final Supplier<List<HandlerMapping>> mappings;
  private final int order;

  GuardWebFilter(HttpInbound inbound, GuardWebProperties.Paths paths,
      Supplier<List<HandlerMapping>> mappings, int order) {
    this.gate = InboundGate.of(inbound.pathTemplate(GuardWebFilter::template));
    this.paths = paths;
    this.mappings = mappings;
    this.order = order;
  }

  @Override
  public int getOrder() {
    return order;
  }

  /** How many requests were named {@link HttpInbound#OVERFLOW_RESOURCE}. */
  long overflows() {
    return gate.overflows();
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (!paths.guards(exchange.getRequest().getPath().pathWithinApplication())) {
      return chain.filter(exchange);
    }
    Lookup lookup = new Lookup(exchange);
    return Flux.fromIterable(mappings.get())
        .concatMap(mapping -> mapping.getHandler(lookup).onErrorResume(error -> Mono.empty()))
        .next()
        .map(handler -> Optional.ofNullable(lookup.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE)))
        .defaultIfEmpty(Optional.empty())
        .flatMap(pattern -> {
          pattern.ifPresent(found -> exchange.getAttributes().put(PATTERN, found instanceof PathPattern path
              ? path.getPatternString() : found.toString()));
          return guard(exchange, chain);
        });
  }

  /**
   * The exchange as the handler mappings see it during the lookup: attributes of its own (a copy),
   * so that what they set (the match of a router function, whose patterns would otherwise be
   * combined with the dispatcher's own match) stays off the exchange the dispatcher sees.
   */
  private static final class Lookup extends ServerWebExchangeDecorator {
    private final Map<String, Object> attributes;

    Lookup(ServerWebExchange exchange) {
      super(exchange);
      this.attributes = new ConcurrentHashMap<>(exchange.getAttributes());
    }

    @Override
    public Map<String, Object> getAttributes() {
      return attributes;
    }
  }

  private static @Nullable String template(HttpInbound.Request request) {
    return request.unwrap(ServerWebExchange.class)
        .map(exchange -> exchange.<String>getAttribute(PATTERN)).orElse(null);
  }

  private Mono<Void> guard(ServerWebExchange exchange, WebFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    ServerHttpResponse response = exchange.getResponse();
    HttpInbound.Request view = HttpInbound.Request.of(exchange, request.getMethod().name(),
        request.getURI().getRawPath(), (in, name) -> in.getRequest().getHeaders().getFirst(name),
        GuardWebFilter::remoteAddress);
    Admission admission = gate.admit(view, view.method(), view.path());
    admission.close(); // the handler runs later, on other threads: no context on this one
    Admission.Refusal refused = admission.refusal();
    if (refused != null) {
      return answer(response, refused);
    }
    admission.headers(response.getHeaders()::set);
    return chain.filter(exchange)
        .onErrorResume(RefusedException.class, nested -> response.isCommitted()
            ? Mono.error(nested) : answer(response, admission.refusedInside(nested)))
        .doOnError(admission::failed)
        .doFinally(signal -> admission.finish(status(response)));
  }

  private static String remoteAddress(ServerWebExchange exchange) {
    InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
    return remote == null || remote.getAddress() == null
        ? "" : remote.getAddress().getHostAddress();
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
}
