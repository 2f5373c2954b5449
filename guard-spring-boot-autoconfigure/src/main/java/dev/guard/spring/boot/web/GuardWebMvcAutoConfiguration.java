package dev.guard.spring.boot.web;

import dev.guard.engine.GuardEngine;
import dev.guard.http.InboundGate;
import dev.guard.spring.boot.GuardAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.handler.MappedInterceptor;

/**
 * Puts guard into a Spring MVC application's dispatcher: every request the {@code
 * guard.web.include} and {@code guard.web.exclude} patterns select enters, once the dispatcher has
 * chosen its handler, the resource named after the handler's pattern ({@code GET /orders/{id}})
 * as an inbound call of the application's {@link GuardEngine}, or is answered with the {@code
 * guard.web.refusal} response without reaching the handler. Off with {@code
 * guard.web.enabled=false}; an application bean named {@code guardWebInterceptor} replaces the
 * interceptor.
 */
@AutoConfiguration(after = GuardAutoConfiguration.class,
    afterName = "org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({InboundGate.class, DispatcherServlet.class})
@ConditionalOnBean(GuardEngine.class)
@ConditionalOnBooleanProperty(name = "guard.web.enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardWebProperties.class)
public class GuardWebMvcAutoConfiguration {

  /**
   * Returns guard's handler interceptor, for every handler mapping of the application (a mapped
   * interceptor: each mapping of the context detects it); it applies the include and exclude
   * patterns itself.
   *
   * @param engine the application's engine
   * @param properties the {@code guard.web.*} properties
   * @return the interceptor, mapped to every path
   */
  @Bean
  @ConditionalOnMissingBean(name = "guardWebInterceptor")
  public MappedInterceptor guardWebInterceptor(GuardEngine engine,
      GuardWebProperties properties) {
    return new MappedInterceptor(null, null,
        new GuardMvcInterceptor(properties.inbound(engine), properties.paths()));
  }

  /**
   * Returns the exception resolver that answers a refusal escaping the handler of an admitted
   * request as a refusal (after the application's own exception handling).
   *
   * @return the resolver
   */
  @Bean
  @ConditionalOnMissingBean(name = "guardRefusalResolver")
  public HandlerExceptionResolver guardRefusalResolver() {
    return new RefusalResolver();
  }
}
