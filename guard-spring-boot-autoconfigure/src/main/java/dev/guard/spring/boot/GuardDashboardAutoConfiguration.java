package dev.guard.spring.boot;

import dev.guard.dashboard.GuardDashboard;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisFleet;
import dev.guard.spi.RuleSource;
import jakarta.servlet.http.HttpServlet;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * The guard dashboard as a servlet of the application under {@code guard.dashboard.path}, when
 * {@code guard.dashboard.enabled}: requests pass the application's filters (its security) first,
 * and the dashboard's own access token after. Rule edits go to the rules file when the rules come
 * from one, else to the dashboard's memory source. When the instance joined a fleet ({@code
 * guard.redis.fleet.*}), the dashboard shows it.
 */
@AutoConfiguration(after = GuardAutoConfiguration.class)
@ConditionalOnClass({GuardDashboard.class, HttpServlet.class, ServletRegistrationBean.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty("guard.dashboard.enabled")
@ConditionalOnBean(GuardEngine.class)
public class GuardDashboardAutoConfiguration {

  /** Creates the configuration; Spring does. */
  public GuardDashboardAutoConfiguration() {}

  /**
   * Returns the dashboard's servlet registration.
   *
   * @param engine the engine shown
   * @param properties the {@code guard.*} properties
   * @param rules where the rules come from, for edits
   * @param beans the bean factory, for the fleet when the instance joined one (looked up by
   *     name: guard-redis is optional)
   * @return the registration
   */
  @Bean
  public ServletRegistrationBean<HttpServlet> guardDashboardServlet(GuardEngine engine,
      GuardProperties properties, ObjectProvider<GuardRules> rules, BeanFactory beans) {
    GuardProperties.Dashboard dashboard = properties.dashboard();
    String token = dashboard.accessToken();
    if (token == null || token.isBlank()) {
      throw InvalidGuardSettingsException.of("guard.dashboard.access-token",
          "must be set (at least 16 characters) when guard.dashboard.enabled is true, was nothing");
    }
    String path = dashboard.path().strip();
    if (!path.startsWith("/") || path.contains("*") || path.length() < 2) {
      throw InvalidGuardSettingsException.of("guard.dashboard.path",
          "must be a path such as /guard, was '" + dashboard.path() + "'");
    }
    path = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    GuardDashboard.Builder builder = GuardDashboard.builder(engine).accessToken(token);
    GuardRules installed = rules.getIfAvailable();
    RuleSource.Writable writable = installed == null ? null : installed.writable();
    if (writable != null) {
      builder.ruleSource(writable);
    }
    if (beans.containsBean(GuardAutoConfiguration.FLEET)) {
      builder.fleet((RedisFleet) beans.getBean(GuardAutoConfiguration.FLEET));
    }
    ServletRegistrationBean<HttpServlet> registration =
        new ServletRegistrationBean<>(builder.build().servlet(), path + "/*");
    registration.setName("guardDashboard");
    return registration;
  }
}
