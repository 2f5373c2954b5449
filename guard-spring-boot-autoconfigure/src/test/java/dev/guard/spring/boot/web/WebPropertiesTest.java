package dev.guard.spring.boot.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.spring.boot.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.servlet.handler.MappedInterceptor;

/** The MVC interceptor's registration and a bad {@code guard.web.*} value failing the start-up. */
class WebPropertiesTest {

  private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
          GuardWebMvcAutoConfiguration.class));

  @Test
  void interceptor_isMappedToEveryPath_andTheRefusalResolverRegistered() {
    runner.run(context -> {
      MappedInterceptor mapped = context.getBean("guardWebInterceptor", MappedInterceptor.class);
      assertThat(mapped.getInterceptor()).isInstanceOf(GuardMvcInterceptor.class);
      assertThat(mapped.getIncludePathPatterns()).isNull();
      assertThat(context.getBean("guardRefusalResolver")).isInstanceOf(RefusalResolver.class);
    });
  }

  @Test
  void guardWebEnabledFalse_registersNeither() {
    runner.withPropertyValues("guard.web.enabled=false").run(context -> assertThat(context)
        .doesNotHaveBean("guardWebInterceptor").doesNotHaveBean("guardRefusalResolver"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "guard.web.refusal.status=42 | guard.web.refusal.status: must be from 400 to 599, was 42",
      "guard.web.max-resources=0 | guard.web.max-resources: must be > 0, was 0",
      "guard.web.include=/a/**/b/** | guard.web.include: must hold path patterns, was '/a/**/b/**'",
      "guard.web.entrance= | guard.web.entrance: must not be blank, was ''",
      "guard.web.argument-headers[0]= | guard.web.argument-headers: must not hold a blank name",
  })
  void badValue_failsTheStartUp_namingTheProperty(String property, String message) {
    runner.withPropertyValues(property).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
    });
  }
}
