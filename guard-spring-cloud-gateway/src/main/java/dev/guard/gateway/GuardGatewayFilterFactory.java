package dev.guard.gateway;

import dev.guard.engine.GuardEngine;
import dev.guard.http.HttpInbound;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;

/**
 * The {@code Guard} gateway filter factory: a route with the filter has each request enter the
 * route's resource (named by the route id) and, nested inside it, the resource of each API group
 * ({@code guard.gateway.groups}) its path matches, as inbound calls of the application's {@link
 * GuardEngine}; a refused request is answered 429 (503 for an open circuit breaker) with {@code
 * Retry-After} and is not routed. The filter's {@code keys} name the request values the
 * resources are entered with, so that per-value rules limit each client, tenant or host on its
 * own: the rule's argument index is the key's position. See the project's {@code
 * docs/GATEWAY.md}.
 *
 * <pre>{@code
 * spring.cloud.gateway.server.webflux.routes:
 *   - id: orders
 *     uri: http://orders:8080
 *     predicates: [Path=/orders/**]
 *     filters:
 *       - Guard=header:X-Api-Key,client-address
 * }</pre>
 *
 * <p>From the Java route DSL: {@code .filters(f -> f.filter(guard.keys("header:X-Api-Key")))}.
 * Thread-safe; registered by the auto-configuration when the gateway and guard's starter are both
 * on the class path.
 */
public class GuardGatewayFilterFactory
    extends AbstractGatewayFilterFactory<GuardGatewayFilterFactory.Config> {

  private final HttpInbound inbound;
  private final ApiGroups groups;
  private final TrustedProxies proxies;

  /**
   * Creates the factory.
   *
   * @param engine the engine the filters' requests enter
   * @param properties the {@code guard.gateway.*} properties
   */
  public GuardGatewayFilterFactory(GuardEngine engine, GuardGatewayProperties properties) {
    super(Config.class);
    Objects.requireNonNull(engine, "engine");
    this.inbound = properties.inbound(engine);
    this.groups = properties.apiGroups();
    this.proxies = properties.proxies();
  }

  @Override
  public GatewayFilter apply(Config config) {
    List<KeySource> keys = new ArrayList<>(config.getKeys().size());
    for (String key : config.getKeys()) {
      keys.add(KeySource.parse(key, proxies));
    }
    return new GuardGatewayFilter(inbound, keys, groups, proxies);
  }

  /**
   * Returns a filter whose requests enter their resources with these keys, for the Java route
   * DSL.
   *
   * <pre>{@code
   * builder.routes().route("orders", r -> r.path("/orders/**")
   *     .filters(f -> f.filter(guard.keys("header:X-Api-Key", "client-address")))
   *     .uri(ordersUri)).build();
   * }</pre>
   *
   * @param keys the key spellings ({@link Config#setKeys}); none for a filter without keys
   * @return the filter
   * @throws IllegalArgumentException naming {@code keys} and a spelling that is not a key
   */
  public GatewayFilter keys(String... keys) {
    return apply(new Config().setKeys(List.of(keys)));
  }

  @Override
  public ShortcutType shortcutType() {
    return ShortcutType.GATHER_LIST;
  }

  @Override
  public List<String> shortcutFieldOrder() {
    return List.of("keys");
  }

  /**
   * A {@code Guard} filter's configuration: the keys its requests enter their resources with.
   */
  public static class Config {

    private List<String> keys = List.of();

    /** Creates a configuration with no keys. */
    public Config() {
      // bound by the gateway from a route's args
    }

    /**
     * Returns the key spellings.
     *
     * @return the keys, in argument order
     */
    public List<String> getKeys() {
      return keys;
    }

    /**
     * Sets the request values the resources are entered with, in argument order: {@code
     * client-address} (under the trusted-proxy rule), {@code host}, {@code header:NAME}, {@code
     * query:NAME}, {@code cookie:NAME}. An absent value is the empty string, a long one its
     * digest.
     *
     * @param keys the spellings
     * @return this configuration
     */
    public Config setKeys(List<String> keys) {
      this.keys = List.copyOf(keys);
      return this;
    }
  }
}
