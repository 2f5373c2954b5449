package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class EngineBeanTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class));

  @Test
  void one_engine_is_configured() {
    runner.run(context -> assertThat(context).hasSingleBean(GuardEngine.class));
  }

  @Test
  void the_engine_backs_off_when_the_application_defines_one() {
    runner
        .withUserConfiguration(OwnEngine.class)
        .run(
            context ->
                assertThat(context.getBean(GuardEngine.class))
                    .isSameAs(context.getBean(OwnEngine.class).engine));
  }

  @Test
  void guard_enabled_false_configures_nothing() {
    runner
        .withPropertyValues("guard.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(GuardEngine.class));
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnEngine {
    final GuardEngine engine = GuardEngine.builder().build();

    @Bean
    GuardEngine ownEngine() {
      return engine;
    }
  }
}
