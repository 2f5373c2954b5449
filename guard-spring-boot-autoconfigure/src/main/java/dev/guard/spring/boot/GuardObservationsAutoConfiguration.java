package dev.guard.spring.boot;

import dev.guard.micrometer.GuardObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Refusals and breaker transitions as events of the application's observations: the recorder is
 * an engine listener (breaker transitions) and is told of every refusal a {@link Guarded} method
 * meets. Configured before the engine, which takes every {@code EngineListener} bean.
 */
@AutoConfiguration(
    before = GuardAutoConfiguration.class,
    afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({GuardObservations.class, ObservationRegistry.class})
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "guard.observations.enabled", matchIfMissing = true)
public class GuardObservationsAutoConfiguration {

  /** Creates the configuration; Spring does. */
  public GuardObservationsAutoConfiguration() {}

  /**
   * Returns the recorder of guard's events on the observation in progress.
   *
   * @param registry the application's observation registry
   * @return the recorder, an engine listener
   */
  @Bean
  @ConditionalOnMissingBean
  public GuardObservations guardObservations(ObservationRegistry registry) {
    return GuardObservations.of(registry);
  }

  @Bean
  GuardedMethods.RefusalObserver guardRefusalObservations(GuardObservations observations) {
    return observations::refused;
  }
}
