package dev.guard.gateway;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Makes {@code guard.web.enabled} default to false in a gateway: there the {@code Guard} filter
 * names requests by route and API group, and the starter's WebFlux filter would enter a second
 * resource, named by method and path, for every routed request. The default sits below every
 * other property source, so an application that sets {@code guard.web.enabled=true} (for
 * controllers of its own beside the routes) has both.
 */
final class GatewayWebDefaults implements EnvironmentPostProcessor {

  /** The name of the property source holding the default. */
  static final String SOURCE = "guardGatewayDefaults";

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment,
      SpringApplication application) {
    if (!environment.getPropertySources().contains(SOURCE)) {
      environment.getPropertySources().addLast(
          new MapPropertySource(SOURCE, Map.of("guard.web.enabled", "false")));
    }
  }
}
