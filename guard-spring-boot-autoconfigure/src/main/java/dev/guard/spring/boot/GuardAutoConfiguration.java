package dev.guard.spring.boot;

import dev.guard.engine.GuardEngine;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** Configures one {@link GuardEngine} unless the application defines its own. */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "guard.enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardProperties.class)
public class GuardAutoConfiguration {

  /**
   * Returns the engine, built from the {@code guard.*} properties.
   *
   * @param properties the bound {@code guard.*} properties
   * @return the application's engine
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public GuardEngine guardEngine(GuardProperties properties) {
    return GuardEngine.builder().build();
  }
}
