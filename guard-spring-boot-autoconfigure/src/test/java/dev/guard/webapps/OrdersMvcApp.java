package dev.guard.webapps;

import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A small Spring MVC application for the filter's tests: orders, users, a health path and a router function, on an
 * engine whose clock only moves when a test moves it (so every QPS window holds all of a test's
 * requests).
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration(excludeName = { // the module's test class path has Spring Security; these apps have none
    "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"})
@Import({StoppedClockEngine.class, OrdersMvcApp.Orders.class, Quotes.class})
public class OrdersMvcApp {

  /** Asked first by the dispatcher for every request; counts the lookups and maps nothing. */
  @Bean
  CountingMapping countingMapping() {
    return new CountingMapping();
  }

  /** A handler mapping that counts how often a handler is looked up, and has none. */
  public static final class CountingMapping implements HandlerMapping, Ordered {
    private final AtomicLong lookups = new AtomicLong();

    /** The lookups so far. */
    public long lookups() {
      return lookups.get();
    }

    @Override
    public @Nullable HandlerExecutionChain getHandler(HttpServletRequest request) {
      lookups.incrementAndGet();
      return null;
    }

    @Override
    public int getOrder() {
      return Ordered.HIGHEST_PRECEDENCE;
    }
  }

  @Bean
  RouterFunction<ServerResponse> shelves() {
    return RouterFunctions.route()
        .GET("/shelves/{shelf}", request -> ServerResponse.ok()
            .body("shelf " + request.pathVariable("shelf")))
        .build();
  }

  @RestController
  static class Orders {

    private final Quotes quotes;

    Orders(Quotes quotes) {
      this.quotes = quotes;
    }

    @GetMapping("/quotes/{item}")
    String quote(@PathVariable String item) {
      return quotes.quote(item);
    }

    @GetMapping("/async-quotes/{item}")
    CompletionStage<String> asyncQuote(@PathVariable String item) {
      return quotes.quoteAsync(item);
    }

    @GetMapping("/orders/{id}")
    String order(@PathVariable String id) {
      return "order " + id;
    }

    @GetMapping("/users/{name}")
    String user(@PathVariable String name) {
      return "user " + name;
    }

    @GetMapping("/boom")
    String boom() {
      throw new IllegalStateException("boom");
    }

    @GetMapping("/health/live")
    String live() {
      return "up";
    }
  }
}
