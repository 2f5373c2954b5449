package dev.guard.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

@ExtendWith(OutputCaptureExtension.class)
class InvalidSettingsReportTest {

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(GuardAutoConfiguration.class)
  static class Application {}

  @Test
  void bad_settings_fail_the_start_up_with_springs_report_of_every_problem(CapturedOutput output) {
    SpringApplication application = new SpringApplication(Application.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    application.setDefaultProperties(Map.of(
        "guard.rules.flow[0].resource", "search", "guard.rules.flow[0].qps", "-5",
        "guard.rules.flow[1].resource", "cart", "guard.rules.flow[1].qsp", "1"));

    assertThatThrownBy(application::run).hasStackTraceContaining("InvalidGuardSettingsException");

    assertThat(output.getOut() + output.getErr())
        .contains("APPLICATION FAILED TO START")
        .contains("guard's settings are not valid:")
        .contains("guard.rules.flow[0].qps: must be finite and >= 0, was -5")
        .contains("guard.rules.flow[1].qsp: is not a field here")
        .contains("Correct the properties named above");
  }

  @Test
  void an_engine_option_is_reported_the_same_way(CapturedOutput output) {
    SpringApplication application = new SpringApplication(Application.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    application.setDefaultProperties(Map.of("guard.max-resources", "-1"));

    assertThatThrownBy(application::run).hasStackTraceContaining("InvalidGuardSettingsException");

    assertThat(output.getOut() + output.getErr())
        .contains("APPLICATION FAILED TO START")
        .contains("guard.max-resources: maxResources must be > 0, was -1");
  }
}
