package dev.guard.spring.boot.client;

import dev.guard.engine.GuardEngine;
import dev.guard.http.OutboundGate;
import dev.guard.spring.boot.GuardAutoConfiguration;
import dev.guard.spring.client.GuardClientInterceptor;
import dev.guard.spring.client.GuardExchangeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Guards the calls of the HTTP clients an application builds from Spring Boot's builders, when
 * {@code guard.web.client.enabled=true} and guard-spring-web-client is on the class path: a {@code
 * RestClient.Builder} and a {@code RestTemplateBuilder} get a {@link GuardClientInterceptor}, a
 * {@code WebClient.Builder} a {@link GuardExchangeFilter}, all admitting calls through one {@link
 * OutboundGate} of the application's {@link GuardEngine} (so one resource bound covers them).
 * Each is added after the builder's own interceptors and filters, nearest the network. An
 * application bean of type {@link OutboundGate} replaces the gate.
 */
@AutoConfiguration(after = GuardAutoConfiguration.class)
@ConditionalOnClass({GuardClientInterceptor.class, OutboundGate.class})
@ConditionalOnBean(GuardEngine.class)
@ConditionalOnBooleanProperty(name = "guard.web.client.enabled")
@EnableConfigurationProperties(GuardWebClientProperties.class)
@Import({GuardWebClientAutoConfiguration.RestClients.class,
    GuardWebClientAutoConfiguration.WebClients.class})
public class GuardWebClientAutoConfiguration {

  /**
   * Returns the one outbound admission of the application's guarded clients.
   *
   * @param engine the application's engine
   * @param properties the {@code guard.web.client.*} properties
   * @return the gate
   */
  @Bean
  @ConditionalOnMissingBean
  public OutboundGate guardOutboundGate(GuardEngine engine, GuardWebClientProperties properties) {
    return OutboundGate.of(properties.outbound(engine));
  }

  /**
   * The interceptor on Boot's {@code RestClient.Builder} and {@code RestTemplateBuilder}. Imported,
   * not a {@code @Configuration}: an application's component scan over guard's packages must not
   * find it on its own.
   */
  @ConditionalOnClass(RestClientCustomizer.class)
  static class RestClients {

    @Bean
    RestClientCustomizer guardRestClientCustomizer(OutboundGate gate) {
      GuardClientInterceptor interceptor = GuardClientInterceptor.of(gate);
      return builder -> builder.requestInterceptors(list -> list.add(interceptor));
    }

    @Bean
    RestTemplateCustomizer guardRestTemplateCustomizer(OutboundGate gate) {
      GuardClientInterceptor interceptor = GuardClientInterceptor.of(gate);
      return template -> template.getInterceptors().add(interceptor);
    }
  }

  /** The exchange filter on Boot's {@code WebClient.Builder}; imported, as above. */
  @ConditionalOnClass({WebClientCustomizer.class, GuardExchangeFilter.class})
  static class WebClients {

    @Bean
    WebClientCustomizer guardWebClientCustomizer(OutboundGate gate) {
      GuardExchangeFilter filter = GuardExchangeFilter.of(gate);
      return builder -> builder.filters(list -> list.add(filter));
    }
  }
}
