package dev.guard.gateway;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import dev.guard.http.HttpInbound;
import dev.guard.http.InboundGate;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.gateway.filter.ratelimit.AbstractRateLimiter;
import org.springframework.cloud.gateway.support.ConfigurationService;
import reactor.core.publisher.Mono;

/**
 * guard as the rate limiter of the gateway's own {@code RequestRateLimiter} filter: each request
 * is one call of the resource the limiter names (the route id unless the route's {@code
 * guard-rate-limiter.resource} names another), entered with the key the route's key resolver
 * gives as its one argument and exited at once. So the resource's flow rules limit the route, its
 * per-value rules (argument 0) each key, quotas and cluster (Redis-shared) rules apply as in any
 * call, and a refusal answers the filter's status (429) with {@code Retry-After}. Rules come from
 * the engine, as every rule of the application does. Concurrency limits and circuit breakers need
 * the call's whole life: use the {@code Guard} filter for them.
 *
 * <pre>{@code
 * filters:
 *   - name: RequestRateLimiter
 *     args:
 *       rate-limiter: "#{@guardRateLimiter}"
 *       key-resolver: "#{@apiKeyResolver}"
 * }</pre>
 *
 * <p>Thread-safe; registered as the bean {@code guardRateLimiter} by the auto-configuration.
 */
public class GuardRateLimiter extends AbstractRateLimiter<GuardRateLimiter.Config> {

  /** The prefix of the limiter's arguments in a route's filter args. */
  public static final String CONFIGURATION_PROPERTY_NAME = "guard-rate-limiter";

  private final GuardEngine engine;
  private final String entrance;
  private final boolean rateLimitHeaders;
  private final Map<String, GuardedResource> handles = new ConcurrentHashMap<>();

  /**
   * Creates the limiter.
   *
   * @param engine the engine that decides
   * @param properties the {@code guard.gateway.*} properties (entrance, rate-limit headers)
   * @param configuration the gateway's configuration service, which binds route arguments
   */
  public GuardRateLimiter(GuardEngine engine, GuardGatewayProperties properties,
      ConfigurationService configuration) {
    super(Config.class, CONFIGURATION_PROPERTY_NAME, configuration);
    this.engine = Objects.requireNonNull(engine, "engine");
    this.entrance = properties.entrance();
    this.rateLimitHeaders = properties.rateLimitHeaders();
  }

  @Override
  public Mono<Response> isAllowed(String routeId, String id) {
    Config config = getConfig().get(routeId);
    String configured = config == null ? null : config.getResource();
    String name = configured == null || configured.isBlank() ? routeId : configured;
    GuardedResource resource = handles.computeIfAbsent(name,
        key -> engine.resource(key).entryType(EntryType.IN).context(entrance, ""));
    String key = HttpInbound.boundedArgument(id);
    Map<String, String> headers = new HashMap<>(4);
    try {
      resource.enterAsync(key).close();
    } catch (RefusedException refused) {
      fields(resource, key, headers);
      refused.retryAfter().ifPresent(wait -> headers.put("Retry-After", seconds(wait)));
      return Mono.just(new Response(false, headers));
    }
    fields(resource, key, headers);
    return Mono.just(new Response(true, headers));
  }

  private void fields(GuardedResource resource, String key, Map<String, String> headers) {
    if (rateLimitHeaders) {
      resource.budget(key).map(InboundGate.RateLimitFields::of).ifPresent(fields -> {
        headers.put(InboundGate.RATE_LIMIT_POLICY, fields.policy());
        headers.put(InboundGate.RATE_LIMIT, fields.rateLimit());
      });
    }
  }

  private static String seconds(Duration wait) {
    return Long.toString(wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0));
  }

  /**
   * The limiter's arguments of one route, bound from {@code guard-rate-limiter.*} in the route's
   * {@code RequestRateLimiter} args.
   */
  public static class Config {

    private @Nullable String resource;

    /** Creates a configuration that names the route's own resource. */
    public Config() {
      // bound by the gateway from a route's args
    }

    /**
     * Returns the resource the route's requests are calls of, or null for the route id.
     *
     * @return the resource name, or null
     */
    public @Nullable String getResource() {
      return resource;
    }

    /**
     * Names the resource the route's requests are calls of (routes naming one resource share
     * its limits); null for the route id.
     *
     * @param resource the resource name, or null
     * @return this configuration
     */
    public Config setResource(@Nullable String resource) {
      this.resource = resource;
      return this;
    }
  }
}
