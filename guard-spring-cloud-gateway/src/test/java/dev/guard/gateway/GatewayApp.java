package dev.guard.gateway;

import dev.guard.testkit.ManualClock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Mono;

/**
 * The test gateway: routes from {@code application.yml} in front of the {@link Backend}, one route
 * from the Java DSL, a key resolver for {@code RequestRateLimiter}, and an engine whose clock only
 * moves when a test moves it.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class GatewayApp {

  @Bean
  ManualClock clock() {
    return new ManualClock();
  }

  @Bean
  KeyResolver apiKeyResolver() {
    return exchange -> Mono.justOrEmpty(
        exchange.getRequest().getHeaders().getFirst("X-Api-Key"));
  }

  @Bean
  RouteLocator dslRoutes(RouteLocatorBuilder routes, GuardGatewayFilterFactory guard,
      @Value("${backend.port}") int backendPort) {
    return routes.routes()
        .route("dsl", route -> route.path("/dsl/**")
            .filters(filters -> filters.filter(guard.keys("header:X-Api-Key")))
            .uri("http://127.0.0.1:" + backendPort))
        .build();
  }
}
