package dev.guard.gateway;

import dev.guard.engine.GuardEngine;
import dev.guard.spring.boot.GuardAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.filter.factory.GatewayFilterFactory;
import org.springframework.cloud.gateway.support.ConfigurationService;
import org.springframework.context.annotation.Bean;

/**
 * Registers guard in a Spring Cloud Gateway (server WebFlux) application that has guard's starter:
 * the {@code Guard} filter factory and the rate limiter {@code guardRateLimiter}, both on the
 * starter's {@link GuardEngine} and the {@code guard.gateway.*} properties. Runs before the
 * gateway's own auto-configuration, so that its {@code RequestRateLimiter} filter finds a rate
 * limiter; off with {@code guard.gateway.enabled=false}; an application bean of either type
 * replaces it.
 */
@AutoConfiguration(after = GuardAutoConfiguration.class,
    beforeName = "org.springframework.cloud.gateway.config.GatewayAutoConfiguration")
@ConditionalOnClass(GatewayFilterFactory.class)
@ConditionalOnBean(GuardEngine.class)
@ConditionalOnBooleanProperty(name = "guard.gateway.enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardGatewayProperties.class)
public class GuardGatewayAutoConfiguration {

  /** Creates the auto-configuration. */
  public GuardGatewayAutoConfiguration() {
    // instantiated by Spring
  }

  /**
   * Returns the {@code Guard} filter factory.
   *
   * @param engine the application's engine
   * @param properties the {@code guard.gateway.*} properties
   * @return the factory
   */
  @Bean
  @ConditionalOnMissingBean
  public GuardGatewayFilterFactory guardGatewayFilterFactory(GuardEngine engine,
      GuardGatewayProperties properties) {
    return new GuardGatewayFilterFactory(engine, properties);
  }

  /**
   * Returns guard's rate limiter for the gateway's {@code RequestRateLimiter} filter.
   *
   * @param engine the application's engine
   * @param properties the {@code guard.gateway.*} properties
   * @param configuration the gateway's configuration service
   * @return the limiter
   */
  @Bean
  @ConditionalOnMissingBean
  public GuardRateLimiter guardRateLimiter(GuardEngine engine, GuardGatewayProperties properties,
      ConfigurationService configuration) {
    return new GuardRateLimiter(engine, properties, configuration);
  }
}
