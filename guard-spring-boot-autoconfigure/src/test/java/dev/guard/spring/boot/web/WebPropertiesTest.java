package dev.guard.spring.boot.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.spring.boot.GuardAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

/** The MVC filter's registration and a bad {@code guard.web.*} value failing the start-up. */
class WebPropertiesTest {

  private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class,
          GuardWebMvcAutoConfiguration.class));

  @Test
  void filter_isRegisteredForEveryPath_atTheConfiguredOrder() {
    runner.withPropertyValues("guard.web.filter-order=42").run(context -> {
      FilterRegistrationBean<?> registration =
          context.getBean("guardWebFilter", FilterRegistrationBean.class);
      assertThat(registration.getUrlPatterns()).containsExactly("/*");
      assertThat(registration.getOrder()).isEqualTo(42);
    });
  }

  @Test
  void guardWebEnabledFalse_registersNoFilter() {
    runner.withPropertyValues("guard.web.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean("guardWebFilter"));
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
