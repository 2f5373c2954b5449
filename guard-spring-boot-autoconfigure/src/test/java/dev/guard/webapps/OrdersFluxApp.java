package dev.guard.webapps;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * A small WebFlux application for the filter's tests: an annotated controller and a router
 * function, on an engine whose clock only moves when a test moves it.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration(excludeName = {
    "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration",
    // the module's test class path has Spring Security; this app has none
    "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration"})
@Import({StoppedClockEngine.class, OrdersFluxApp.Orders.class, Quotes.class})
public class OrdersFluxApp {

  @Bean
  RouterFunction<ServerResponse> shelves() {
    return RouterFunctions.route()
        .GET("/shelves/{shelf}", request -> ServerResponse.ok()
            .bodyValue("shelf " + request.pathVariable("shelf")))
        .build();
  }

  @RestController
  static class Orders {

    private final Quotes quotes;

    Orders(Quotes quotes) {
      this.quotes = quotes;
    }

    @GetMapping("/quotes/{item}")
    Mono<String> quote(@PathVariable String item) {
      return Mono.just(quotes.quote(item));
    }

    @GetMapping("/later-quotes/{item}")
    Mono<String> laterQuote(@PathVariable String item) {
      return quotes.later(item);
    }

    @GetMapping("/orders/{id}")
    Mono<String> order(@PathVariable String id) {
      return Mono.just("order " + id);
    }

    @GetMapping("/users/{name}")
    Mono<String> user(@PathVariable String name) {
      return Mono.just("user " + name);
    }

    @GetMapping("/health/live")
    Mono<String> live() {
      return Mono.just("up");
    }

    @GetMapping("/fail")
    Mono<String> fail() {
      return Mono.error(new IllegalStateException("broken"));
    }
  }
}
