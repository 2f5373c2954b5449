import org.jspecify.annotations.NullMarked;

/**
 * Spring's HTTP clients guarded call by call: a request interceptor for {@code RestClient} and
 * {@code RestTemplate}, and an exchange filter for {@code WebClient}, both admitting each call
 * through guard-http's outbound gate. Spring WebFlux and Reactor are optional: only the exchange
 * filter needs them.
 */
@NullMarked
module dev.guard.spring.client {
  requires transitive dev.guard.http;
  requires transitive spring.web;
  requires transitive spring.core;
  requires static spring.webflux;
  requires static reactor.core;
  requires static org.reactivestreams;

  exports dev.guard.spring.client;
}
