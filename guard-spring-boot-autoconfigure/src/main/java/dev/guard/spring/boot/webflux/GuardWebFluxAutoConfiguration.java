package dev.guard.spring.boot.webflux;

import dev.guard.engine.GuardEngine;
import dev.guard.http.InboundGate;
import dev.guard.spring.boot.GuardAutoConfiguration;
import dev.guard.spring.boot.web.GuardWebProperties;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.WebFilter;

/**
 * Registers guard's {@link WebFilter} in a WebFlux application: every request the {@code
 * guard.web.include} and {@code guard.web.exclude} patterns select enters the resource named after
 * its route's pattern ({@code GET /orders/{id}}) as an inbound call of the application's {@link
 * GuardEngine}, or is answered with the {@code guard.web.refusal} response without reaching the
 * handler. The same {@code guard.web.*} properties as for Spring MVC; off with {@code
 * guard.web.enabled=false}; an application bean named {@code guardWebFilter} replaces it.
 */
@AutoConfiguration(after = GuardAutoConfiguration.class,
    afterName = "org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({InboundGate.class, DispatcherHandler.class})
@ConditionalOnBean(GuardEngine.class)
@ConditionalOnBooleanProperty(name = "guard.web.enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardWebProperties.class)
public class GuardWebFluxAutoConfiguration {

  /**
   * Returns the filter, at {@code guard.web.filter-order}, with the handler mappings of the
   * application's {@link DispatcherHandler}.
   *
   * @param engine the application's engine
   * @param properties the {@code guard.web.*} properties
   * @param dispatcher the dispatcher whose handler mappings name the routes
   * @return the filter
   */
  @Bean
  @ConditionalOnMissingBean(name = "guardWebFilter")
  public WebFilter guardWebFilter(GuardEngine engine, GuardWebProperties properties,
      ObjectProvider<DispatcherHandler> dispatcher) {
    return new GuardWebFilter(properties.inbound(engine), properties.paths(),
        new Mappings(dispatcher), properties.filterOrder());
  }

  /** The dispatcher's handler mappings, looked up on the first request that finds some. */
  private static final class Mappings implements java.util.function.Supplier<List<HandlerMapping>> {
    private final ObjectProvider<DispatcherHandler> dispatcher;
    private volatile List<HandlerMapping> known = List.of();

    Mappings(ObjectProvider<DispatcherHandler> dispatcher) {
      this.dispatcher = dispatcher;
    }

    @Override
    public List<HandlerMapping> get() {
      List<HandlerMapping> mappings = known;
      if (mappings.isEmpty()) {
        DispatcherHandler handler = dispatcher.getIfAvailable();
        mappings = handler == null ? List.of() : List.copyOf(handler.getHandlerMappings());
        known = mappings;
      }
      return mappings;
    }
  }
}
