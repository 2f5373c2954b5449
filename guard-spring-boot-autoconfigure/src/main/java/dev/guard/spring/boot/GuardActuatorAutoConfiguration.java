package dev.guard.spring.boot;

import dev.guard.engine.GuardEngine;
import dev.guard.micrometer.GuardMetrics;
import dev.guard.redis.RedisFleet;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Supplier;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * What the application's actuator and Micrometer see of guard: the endpoint {@code guard}, the
 * health contributor {@code guard}, the engine's meters on the application's {@code MeterRegistry}
 * and refusals and breaker transitions on its observations. Each part needs its library on the
 * class path and can be switched off like Spring's own ({@code management.endpoint.guard.access},
 * {@code management.health.guard.enabled}, {@code guard.observations.enabled}).
 */
@AutoConfiguration(
    after = GuardAutoConfiguration.class,
    afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"})
@ConditionalOnBean(GuardEngine.class)
public class GuardActuatorAutoConfiguration {

  /** Creates the configuration; Spring does. */
  public GuardActuatorAutoConfiguration() {}

  /** The endpoint {@code guard}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Endpoint.class)
  @ConditionalOnAvailableEndpoint(GuardEndpoint.class)
  static class EndpointConfiguration {
    @Bean
    @ConditionalOnMissingBean
    GuardEndpoint guardEndpoint(GuardEngine engine, ObjectProvider<GuardRules> rules,
        BeanFactory beans) {
      Supplier<?> fleet = beans.containsBean(GuardAutoConfiguration.FLEET)
          ? () -> ((RedisFleet) beans.getBean(GuardAutoConfiguration.FLEET)).view() : null;
      return new GuardEndpoint(engine, rules.getIfAvailable(), fleet);
    }
  }

  /** The health contributor {@code guard}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnEnabledHealthIndicator("guard")
  static class HealthConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "guardHealthIndicator")
    HealthIndicator guardHealthIndicator(GuardEngine engine, GuardProperties properties) {
      boolean redis = ClassUtils.isPresent("dev.guard.redis.RedisTokenService",
          GuardActuatorAutoConfiguration.class.getClassLoader());
      return new GuardHealthIndicator(engine, properties.actuator().healthOpenBreakers(),
          redis ? RedisHealth.of(engine) : null);
    }
  }

  /**
   * The engine's meters: a meter binder, which Spring Boot binds to every registry it configures
   * (and which costs nothing where there is none).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({GuardMetrics.class, MeterRegistry.class})
  static class MetricsConfiguration {
    @Bean
    @ConditionalOnMissingBean
    GuardMetrics guardMetrics(GuardEngine engine) {
      return GuardMetrics.of(engine);
    }
  }
}
