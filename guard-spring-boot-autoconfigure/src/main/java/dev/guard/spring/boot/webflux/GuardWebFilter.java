package dev.guard.spring.boot.webflux;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardedResource;
import dev.guard.http.HttpInbound;
import dev.guard.http.InboundGate;
import dev.guard.spring.boot.web.GuardWebProperties;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * rate-limit header fields and the recording of errors are guard-http's ({@link InboundGate}),
 * as for the servlet filters.
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
    RequestView view = new RequestView(exchange);
    GuardedResource resource = gate.resource(view, request.getMethod().name(),
        request.getURI().getRawPath());
    if (resource == null) {
      return answer(exchange.getResponse(), InboundGate.AMBIGUOUS_PATH, null);
    }
    @Nullable Object[] args = gate.arguments(view);
    Entry entry;
    try {
      entry = resource.enterAsync(args);
    } catch (RefusedException refused) {
      return answer(exchange.getResponse(), gate.refusal(refused),
          gate.rateLimitFields(resource, args));
    }
    ServerHttpResponse response = exchange.getResponse();
    setRateLimitFields(response.getHeaders(), gate.rateLimitFields(resource, args));
    Exit exit = new Exit(entry, response);
    return chain.filter(exchange)
        .onErrorResume(RefusedException.class, nested -> {
          if (response.isCommitted()) {
            return Mono.error(nested);
          }
          exit.answeredRefusal();
          return answer(response, gate.refusal(nested), gate.rateLimitFields(resource, args));
        })
        .doOnError(exit::failed)
        .doFinally(signal -> exit.run());
  }

  /** Exits a request's entry once, with the error it ended with or the status it was answered. */
  private final class Exit {
    private final Entry entry;
    private final ServerHttpResponse response;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile @Nullable Throwable failure;
    private volatile boolean refusal;

    Exit(Entry entry, ServerHttpResponse response) {
      this.entry = entry;
      this.response = response;
    }

    void failed(Throwable error) {
      failure = error;
    }

    /** The response is a refusal met inside the handler: no error of the request itself. */
    void answeredRefusal() {
      refusal = true;
    }

    void run() {
      if (done.compareAndSet(false, true)) {
        HttpStatusCode status = response.getStatusCode();
        if (refusal && failure == null) {
          entry.close();
        } else {
          gate.finish(entry, status == null ? 200 : status.value(), failure);
        }
      }
    }
  }

  private static void setRateLimitFields(HttpHeaders headers,
      InboundGate.@Nullable RateLimitFields fields) {
    if (fields != null) {
      headers.set(InboundGate.RATE_LIMIT_POLICY, fields.policy());
      headers.set(InboundGate.RATE_LIMIT, fields.rateLimit());
    }
  }

  private static Mono<Void> answer(ServerHttpResponse response, HttpInbound.RefusalResponse refusal,
      InboundGate.@Nullable RateLimitFields fields) {
    response.setStatusCode(HttpStatusCode.valueOf(refusal.status()));
    HttpHeaders headers = response.getHeaders();
    setRateLimitFields(headers, fields);
    Duration wait = refusal.retryAfter();
    if (wait != null) {
      headers.set(HttpHeaders.RETRY_AFTER,
          Long.toString(wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0)));
    }
    headers.setContentType(MediaType.parseMediaType(refusal.contentType()));
    byte[] body = refusal.body().getBytes(StandardCharsets.UTF_8);
    headers.setContentLength(body.length);
    DataBuffer buffer = response.bufferFactory().wrap(body);
    return response.writeWith(Mono.just(buffer));
  }

  /** The exchange as the settings' origin and template functions see it. */
  private static final class RequestView implements HttpInbound.Request {

    private final ServerWebExchange exchange;

    RequestView(ServerWebExchange exchange) {
      this.exchange = exchange;
    }

    @Override
    public String method() {
      return exchange.getRequest().getMethod().name();
    }

    @Override
    public String path() {
      return exchange.getRequest().getURI().getRawPath();
    }

    @Override
    public Optional<String> header(String name) {
      return Optional.ofNullable(exchange.getRequest().getHeaders().getFirst(name));
    }

    @Override
    public String remoteAddress() {
      InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
      return remote == null || remote.getAddress() == null ? "" : remote.getAddress().getHostAddress();
    }

    @Override
    public <T> Optional<T> unwrap(Class<T> type) {
      return type.isInstance(exchange) ? Optional.of(type.cast(exchange)) : Optional.empty();
    }
  }
}
