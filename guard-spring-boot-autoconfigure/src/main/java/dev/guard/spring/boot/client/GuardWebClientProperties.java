package dev.guard.spring.boot.client;

import dev.guard.engine.GuardEngine;
import dev.guard.http.HttpInbound;
import dev.guard.http.HttpOutbound;
import dev.guard.spring.boot.InvalidGuardSettingsException;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code guard.web.client.*} properties: whether and how the clients built from Spring Boot's
 * {@code RestClient.Builder}, {@code RestTemplateBuilder} and {@code WebClient.Builder} are
 * guarded. Checked when the context starts; a bad value fails the start-up naming its property.
 *
 * <pre>{@code
 * guard.web.client.enabled=true
 * guard.web.client.resource-naming=path
 * guard.web.client.max-resources=200
 * }</pre>
 *
 * @param enabled whether the builders guard their clients' calls (default false)
 * @param resourceNaming what a call's resource is named after: {@code host}, {@code
 *     scheme://host[:port]} (default), or {@code path}, {@code METHOD scheme://host[:port]/path}
 *     with identifiers in the path replaced by {@code {id}} ({@link
 *     HttpInbound#defaultPathCleaner()})
 * @param maxResources the most resources the clients create together; further names share
 *     {@code {outbound overflow}} (default 500)
 */
@ConfigurationProperties("guard.web.client")
public record GuardWebClientProperties(
    @DefaultValue("false") boolean enabled,
    @DefaultValue("host") String resourceNaming,
    @DefaultValue("500") int maxResources) {

  /**
   * Checks the values, naming the property of a bad one.
   *
   * @param enabled whether the builders guard their clients' calls
   * @param resourceNaming {@code host} or {@code path}, in any case
   * @param maxResources the resource bound
   * @throws InvalidGuardSettingsException if the naming is neither {@code host} nor {@code path},
   *     or the bound is not positive
   */
  public GuardWebClientProperties {
    resourceNaming = resourceNaming.trim().toLowerCase(Locale.ROOT);
    if (!resourceNaming.equals("host") && !resourceNaming.equals("path")) {
      throw InvalidGuardSettingsException.of("guard.web.client.resource-naming",
          "must be host or path, was '" + resourceNaming + "'");
    }
    if (maxResources <= 0) {
      throw InvalidGuardSettingsException.of("guard.web.client.max-resources",
          "must be > 0, was " + maxResources);
    }
  }

  /**
   * Returns the outbound settings these properties describe, on an engine.
   *
   * @param engine the application's engine
   * @return the settings
   */
  public HttpOutbound outbound(GuardEngine engine) {
    HttpOutbound outbound = HttpOutbound.of(engine).maxResources(maxResources);
    return resourceNaming.equals("path")
        ? outbound.perPath(HttpInbound.defaultPathCleaner()) : outbound;
  }
}
