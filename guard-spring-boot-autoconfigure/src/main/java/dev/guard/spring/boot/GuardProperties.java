package dev.guard.spring.boot;

import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code guard.*} properties. The engine's options are those of {@code GuardEngine.Builder};
 * an option left out keeps the builder's default. Rules come from one place: {@code guard.rules}
 * (in the shape of the JSON rule format, read by the environment), {@code guard.rules-file} or
 * {@code guard.redis.rules-key}.
 *
 * @param enabled whether guard is configured at all
 * @param maxResources the most resources with statistics (engine default 6000)
 * @param maxContexts the most distinct entrance names (engine default 2000)
 * @param maxOriginsPerResource the most origins measured per resource (engine default 1000)
 * @param occupyTimeout the longest wait of a prioritized call borrowing from a future bucket
 *     (engine default 500ms)
 * @param contextStatistics whether every resource records statistics per entrance (engine default
 *     false)
 * @param ruleHistory how many applied rule sets the engine keeps for history and roll back (engine
 *     default 20)
 * @param metricsHistory how much per-second metrics history each resource keeps (engine default
 *     5m, whole seconds, at most 1h)
 * @param metricsHistoryBudget the most seconds of metrics history all resources hold together
 *     (engine default 300000)
 * @param secondWindow the geometry of every resource's one-second window
 * @param refusalLogLinesPerSecond when set, refusals are logged on the logger "dev.guard.refusals",
 *     at most this many lines a second
 * @param rulesFile a JSON rules document that is watched and applied on every change
 * @param adviceOrder the order of {@code @Guarded} advice among the advice of other method
 *     annotations (Spring's {@code @Retryable} and {@code @ConcurrencyLimit}, ...): the highest
 *     order runs outermost (default {@code Ordered.LOWEST_PRECEDENCE}: guard runs first)
 * @param redis a Redis rule source and token service
 * @param observations Micrometer Observation events for refusals and breaker transitions
 * @param actuator the actuator endpoint {@code guard}
 * @param dashboard the guard dashboard, served by the application's servlet container
 */
@ConfigurationProperties("guard")
public record GuardProperties(
    @DefaultValue("true") boolean enabled,
    @Nullable Integer maxResources,
    @Nullable Integer maxContexts,
    @Nullable Integer maxOriginsPerResource,
    @Nullable Duration occupyTimeout,
    @Nullable Boolean contextStatistics,
    @Nullable Integer ruleHistory,
    @Nullable Duration metricsHistory,
    @Nullable Integer metricsHistoryBudget,
    @DefaultValue SecondWindow secondWindow,
    @Nullable Integer refusalLogLinesPerSecond,
    @Nullable Path rulesFile,
    @Nullable Integer adviceOrder,
    @DefaultValue Redis redis,
    @DefaultValue Observations observations,
    @DefaultValue Actuator actuator,
    @DefaultValue Dashboard dashboard) {

  /**
   * The one-second window of every resource; both or neither.
   *
   * @param buckets the buckets of the window (engine default 2)
   * @param length the window's length (engine default 1s)
   */
  public record SecondWindow(@Nullable Integer buckets, @Nullable Duration length) {}

  /**
   * Redis as the home of the rules and of the cluster-mode token budget (needs guard-redis).
   *
   * @param uri the server, such as {@code redis://localhost:6379} ({@code rediss://} for TLS,
   *     {@code redis-sentinel://host:port#master} for a Sentinel group), or a cluster's nodes
   *     separated by commas; when not set, guard uses the Redis the application configured for
   *     Spring Boot ({@code spring.data.redis.*}), if any
   * @param rulesKey the key holding the rules document; when set, the engine's rules come from it
   * @param rulesPollInterval how often the key is read when no change notice arrives (default 5s)
   * @param tokenNamespace the namespace of the token service; when set, the engine decides
   *     cluster-mode flow rules through Redis
   * @param cluster whether the uri names a Redis Cluster
   * @param fleet this instance's place in the fleet of instances sharing the namespace
   */
  public record Redis(
      @Nullable String uri,
      @Nullable String rulesKey,
      @Nullable Duration rulesPollInterval,
      @Nullable String tokenNamespace,
      @DefaultValue("false") boolean cluster,
      @DefaultValue Fleet fleet) {}

  /**
   * The fleet (needs guard-redis): the instance announces itself and publishes its per-second
   * figures under a namespace, and the dashboard's fleet page and the actuator's {@code fleet}
   * show every instance of it.
   *
   * @param enabled whether the instance joins a fleet when Redis is configured with a namespace
   * @param namespace the fleet's namespace (default: {@code guard.redis.token-namespace})
   * @param name how the instance is named on the fleet page (default: {@code
   *     spring.application.name}, else the host)
   * @param heartbeat how often it publishes (default 1s)
   */
  public record Fleet(
      @DefaultValue("true") boolean enabled,
      @Nullable String namespace,
      @Nullable String name,
      @Nullable Duration heartbeat) {

    /** The namespace the fleet shares: its own, else the token service's; null for none. */
    @Nullable String namespaceOr(@Nullable String tokenNamespace) {
      String own = namespace;
      return own != null && !own.isBlank() ? own : tokenNamespace;
    }
  }

  /**
   * Refusals and breaker transitions as events of the observation in progress.
   *
   * @param enabled whether the events are recorded (needs an ObservationRegistry bean)
   */
  public record Observations(@DefaultValue("true") boolean enabled) {}

  /**
   * The actuator's view of guard. The endpoint {@code guard} is exposed and accessed as any
   * endpoint ({@code management.endpoints.web.exposure.include}, {@code
   * management.endpoint.guard.access}: read-only unless set to {@code unrestricted}).
   *
   * @param healthOpenBreakers the status of the health contributor {@code guard} while a breaker
   *     is open or forced open (UP otherwise)
   */
  public record Actuator(@DefaultValue("DEGRADED") String healthOpenBreakers) {}

  /**
   * The dashboard, served as a servlet of the application (needs guard-dashboard).
   *
   * @param enabled whether the dashboard is mounted
   * @param path where, a path prefix such as {@code /guard}
   * @param accessToken the dashboard's own secret (at least 16 characters), required beside the
   *     application's security: a browser logs in once with it
   */
  public record Dashboard(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("/guard") String path,
      @Nullable String accessToken) {}
}
