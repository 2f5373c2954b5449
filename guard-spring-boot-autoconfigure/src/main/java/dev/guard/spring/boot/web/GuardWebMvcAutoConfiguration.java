package dev.guard.spring.boot.web;

import dev.guard.engine.GuardEngine;
import dev.guard.http.GuardServletFilter;
import dev.guard.spring.boot.GuardAutoConfiguration;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import org.springframework.context.ApplicationContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Registers guard's request filter in a Spring MVC application: every request the {@code
 * guard.web.include} and {@code guard.web.exclude} patterns select enters the resource named after
 * its handler's pattern ({@code GET /orders/{id}}) as an inbound call of the application's {@link
 * GuardEngine}, or is answered with the {@code guard.web.refusal} response without reaching the
 * handler. Off with {@code guard.web.enabled=false}; an application bean named {@code
 * guardWebFilter} replaces it.
 */
@AutoConfiguration(after = GuardAutoConfiguration.class,
    afterName = "org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({GuardServletFilter.class, DispatcherServlet.class})
@ConditionalOnBean(GuardEngine.class)
@ConditionalOnBooleanProperty(name = "guard.web.enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardWebProperties.class)
public class GuardWebMvcAutoConfiguration {

  /**
   * Returns the registration of the filter, for the {@code REQUEST} dispatch of every path (the
   * filter itself applies the include and exclude patterns), at {@code guard.web.filter-order}.
   *
   * @param engine the application's engine
   * @param properties the {@code guard.web.*} properties
   * @param dispatcher the dispatcher whose handler mappings name the handlers
   * @param context the application context, whose handler mappings the dispatcher detects
   * @return the registration
   */
  @Bean
  @ConditionalOnMissingBean(name = "guardWebFilter")
  public FilterRegistrationBean<Filter> guardWebFilter(GuardEngine engine,
      GuardWebProperties properties, ObjectProvider<DispatcherServlet> dispatcher,
      ApplicationContext context) {
    HandlerPatterns patterns = new HandlerPatterns(dispatcher, context);
    GuardMvcFilter filter = new GuardMvcFilter(properties.inbound(engine), properties.paths(),
        patterns);
    FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(filter);
    registration.setName("guardWebFilter");
    // ASYNC too: an asynchronous handler's refusal comes back in that dispatch
    registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
    registration.addUrlPatterns("/*");
    registration.setOrder(properties.filterOrder());
    return registration;
  }
}
