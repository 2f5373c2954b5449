package dev.guard.gateway;

import dev.guard.engine.GuardEngine;
import dev.guard.http.HttpInbound;
import dev.guard.spring.boot.InvalidGuardSettingsException;
import dev.guard.spring.boot.web.GuardWebProperties;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code guard.gateway.*} properties: what every {@code Guard} filter of the gateway and
 * guard's {@code RequestRateLimiter} rate limiter share. Checked when bound; a bad value fails the
 * start with a message naming the property and the value.
 *
 * <pre>{@code
 * guard.gateway.groups.orders=/orders/**,/v2/orders/**
 * guard.gateway.trusted-proxies=10.0.0.0/8
 * guard.gateway.rate-limit-headers=true
 * }</pre>
 *
 * @param enabled whether the filter factory and the rate limiter are registered (default true)
 * @param entrance the context (entrance) every gateway request runs in (default {@code gateway})
 * @param originHeader the header naming the caller's origin, or null for none
 * @param rateLimitHeaders whether responses carry {@code RateLimit-Policy} and {@code RateLimit}
 * @param maxResources the most route and group resources a filter creates (default 500)
 * @param trustedProxies addresses and CIDR blocks of proxies whose forwarded headers are believed
 *     for the {@code client-address} key; none by default, so they never are
 * @param groups API groups: a group's name to its path patterns, which may span routes
 * @param refusal the refusal response, as {@code guard.web.refusal} describes
 */
@ConfigurationProperties("guard.gateway")
public record GuardGatewayProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("gateway") String entrance,
    @Nullable String originHeader,
    @DefaultValue("false") boolean rateLimitHeaders,
    @DefaultValue("500") int maxResources,
    @DefaultValue List<String> trustedProxies,
    @DefaultValue Map<String, List<String>> groups,
    @DefaultValue GuardWebProperties.Refusal refusal) {

  /**
   * Validates the properties.
   *
   * @param enabled whether the beans are registered
   * @param entrance the entrance
   * @param originHeader the origin header, or null
   * @param rateLimitHeaders whether to send the rate-limit fields
   * @param maxResources the resource bound
   * @param trustedProxies the trusted proxies
   * @param groups the API groups
   * @param refusal the refusal response
   * @throws InvalidGuardSettingsException naming the property and the value that is wrong
   */
  public GuardGatewayProperties {
    trustedProxies = List.copyOf(trustedProxies);
    groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
    check(entrance.isBlank(), "guard.gateway.entrance", "must not be blank, was '" + entrance + "'");
    check(originHeader != null && originHeader.isBlank(), "guard.gateway.origin-header",
        "must not be blank, was '" + originHeader + "'");
    check(maxResources <= 0, "guard.gateway.max-resources", "must be > 0, was " + maxResources);
    proxies(trustedProxies);
    apiGroups(groups);
  }

  private static void check(boolean bad, String property, String problem) {
    if (bad) {
      throw InvalidGuardSettingsException.of(property, problem);
    }
  }

  /** The inbound settings every Guard filter starts from: entrance, origin, bound, refusal. */
  HttpInbound inbound(GuardEngine engine) {
    HttpInbound inbound = HttpInbound.of(engine).entrance(entrance).maxResources(maxResources)
        .rateLimitHeaders(rateLimitHeaders).refusalResponse(refusal::responseTo);
    String header = originHeader;
    return header == null ? inbound : inbound.originHeader(header);
  }

  /** The trusted proxies. */
  TrustedProxies proxies() {
    return proxies(trustedProxies);
  }

  private static TrustedProxies proxies(List<String> trustedProxies) {
    try {
      return TrustedProxies.of("guard.gateway.trusted-proxies", trustedProxies);
    } catch (IllegalArgumentException bad) {
      throw new InvalidGuardSettingsException(List.of(String.valueOf(bad.getMessage())), bad);
    }
  }

  /** The API groups. */
  ApiGroups apiGroups() {
    return apiGroups(groups);
  }

  private static ApiGroups apiGroups(Map<String, List<String>> groups) {
    try {
      return ApiGroups.of("guard.gateway.groups", groups);
    } catch (IllegalArgumentException bad) {
      throw new InvalidGuardSettingsException(List.of(String.valueOf(bad.getMessage())), bad);
    }
  }
}
