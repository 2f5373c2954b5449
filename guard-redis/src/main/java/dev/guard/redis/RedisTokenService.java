package dev.guard.redis;

import dev.guard.engine.GuardEngine;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.spi.TokenService;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TokenService} on Redis: every instance that connects to the same server (or Redis
 * Cluster) and namespace shares the windows of its cluster flow rules.
 *
 * <pre>{@code
 * RedisTokenService tokens = RedisTokenService.of("redis://localhost:6379", "shop");
 * tokens.awaitConnected(Duration.ofSeconds(2));   // optional: calls decide locally until then
 * GuardEngine engine = GuardEngine.builder().tokenService(tokens).build();
 *
 * // Redis Cluster, leased mode: take up to 8 permits per round trip
 * RedisTokenService clustered = RedisTokenService
 *     .builder("redis://10.0.0.1:7000,redis://10.0.0.2:7000", "shop")
 *     .cluster()
 *     .lease(8)
 *     .build();
 * }</pre>
 *
 * <p>Each request runs one Lua script that reads the server's clock and decides atomically
 * (docs/BEHAVIOUR.md, "Cluster flow control"), so the instances' clocks may disagree. A flow id's
 * keys share one hash slot ({@code guard:{namespace:flowId}:...}), so on Redis Cluster each flow
 * id lives on one node and different flow ids spread over the nodes. Per-instance thresholds count
 * the instances that asked about the flow id within the instance expiry (default 5 s). Concurrency
 * tokens ({@link #acquireConcurrency}) are leases that expire after the rule's {@link
 * ClusterMode#leaseTime()} when their holder dies.
 *
 * <p>Cluster per-value rules ({@link #requestValueToken}) keep each value's buckets in the flow
 * id's hash {@code guard:{namespace:flowId}:pv} and when they are full again in the sorted set
 * {@code :pr}: at most the rule's {@code maxValues} values per flow id, a value leaving as soon as
 * its buckets are full again and the keys expiring when all are (docs/BEHAVIOUR.md, "Cluster
 * per-value limits"). They are decided exactly, one script call per value, in leased mode too.
 * The quotas of cluster flow rules ({@link #requestQuota}) are the same script on one constant
 * field of the flow id's keys {@code :qv} and {@code :qr}: exact, expiring when every quota is
 * full again, one script call per call after the threshold's own request.
 *
 * <p>Failure never reaches the guarded code: a request that gets no answer within the request
 * timeout (default 20 ms), a lost connection, or any Redis error answers {@link
 * TokenService.Result#FAILED}, and the engine falls back as the rule says. After {@code
 * failuresBeforeBackOff} failures in a row the service stops asking for the back-off period
 * (default 1 s) and answers FAILED at once, then lets requests probe again; listeners ({@link
 * Builder#onAvailability}, {@link #addAvailabilityListener}, and so an engine's {@code
 * EngineListener}) hear each change once. A script the server lost (restart, failover) is loaded
 * again transparently.
 *
 * <p>The connection (docs/BEHAVIOUR.md, "On Redis"): {@link #of} and {@link Builder#build()}
 * return at once and connect in the background, on a thread of the service; no call ever waits
 * for a connection to be made: until it is up, calls answer FAILED at once and decide locally,
 * without counting failures while an attempt is under way (a slow start is no outage). {@link
 * #awaitConnected} lets an application wait for it at start-up. A failed attempt counts as one
 * failure; a lost connection is made again on the service's own schedule: an attempt at the first
 * call at least one back-off period (default 1 s, {@link Builder#backOff}, on {@link
 * Builder#clock}) after the previous attempt started, so decisions are shared again within about
 * that period after Redis answers, whatever the length of the outage.
 *
 * <p>A Redis whose {@code maxmemory-policy} may evict keys resets the state of every key it evicts
 * (docs/CLUSTER.md, "When Redis evicts keys"): the service logs a warning at each connection to
 * such a server, {@link #eviction()} reads the policy and what was evicted, and the quotas of
 * cluster flow rules are restored from this instance's last answer when their keys are gone.
 *
 * <p>Thread-safe.
 */
public final class RedisTokenService implements TokenService, AutoCloseable {

  private final Connector connector;
  private final boolean ownsConnection;
  private final Runnable detach;
  private final String namespace;
  private final String instanceId;
  private final Availability availability;
  private final QuotaStates quotaStates = new QuotaStates();
  private final ScriptCalls calls;
  private final FlowTokens flowTokens;
  private final ConcurrencyLeases concurrency;
  private final ValueBudgets budgets;

  private RedisTokenService(Builder b) {
    this.namespace = b.namespace;
    this.instanceId = b.instanceId;
    this.availability = new Availability(b.failuresBeforeBackOff, b.backOff.toNanos(), b.clock);
    Consumer<Boolean> listener = b.availability;
    if (listener != null) {
      availability.addListener(listener::accept);
    }
    RedisConnection shared = b.connection;
    this.ownsConnection = shared == null;
    this.connector = shared != null ? shared.connector()
        : RedisConnection.own(b.uris, b.cluster, b.requestTimeout, b.connectTimeout, b.backOff,
            b.clock, "guard-tokens").connector();
    this.calls = new ScriptCalls(connector, availability, b.requestTimeout, namespace, instanceId,
        b.instanceExpiry, b.maxRequestsPerSecond, b.windowClock);
    FlowKeys keys = new FlowKeys(calls, b.lease);
    this.flowTokens = new FlowTokens(calls, keys, b.clock);
    this.concurrency = new ConcurrencyLeases(calls, keys, b.clock);
    this.budgets = new ValueBudgets(calls, quotaStates);
    this.detach = connector.attach(availability::failed, quotaStates::restored);
    if (ownsConnection) {
      connector.begin();
    }
  }

  /**
   * Connects to Redis with the default settings. Returns at once: the connection is made in the
   * background, and the service answers {@link TokenService.Result#FAILED} (calls decide locally) until it
   * is up; {@link #awaitConnected} waits for it.
   *
   * @param uri the server, e.g. {@code redis://localhost:6379}
   * @param namespace the namespace whose flow ids are shared; not blank, without {@code '{'},
   *     {@code '}'} or {@code ':'}
   * @return the service
   * @throws IllegalArgumentException if the namespace is invalid
   */
  public static RedisTokenService of(String uri, String namespace) {
    return builder(uri, namespace).build();
  }

  /**
   * Starts configuring a service.
   *
   * @param uri the server, e.g. {@code redis://localhost:6379}; for {@link Builder#cluster()} one
   *     or more seed nodes separated by commas
   * @param namespace the namespace whose flow ids are shared; not blank, without {@code '{'},
   *     {@code '}'} or {@code ':'} (they would break the keys' hash tag)
   * @return a builder
   * @throws IllegalArgumentException if the namespace is invalid
   */
  public static Builder builder(String uri, String namespace) {
    return new Builder(uri, namespace);
  }

  /**
   * Starts configuring a service on a connection it shares with the instance's other Redis users;
   * closing the service leaves the connection open. The connection's settings replace {@link
   * Builder#cluster()} and {@link Builder#connectTimeout}; its retry interval replaces the
   * back-off period's part in the connection schedule.
   *
   * <pre>{@code
   * RedisConnection redis = RedisConnection.of("redis://redis:6379");
   * RedisTokenService tokens = RedisTokenService.builder(redis, "shop").build();
   * }</pre>
   *
   * @param connection the shared connection
   * @param namespace the namespace whose flow ids are shared; not blank, without {@code '{'},
   *     {@code '}'} or {@code ':'}
   * @return a builder
   * @throws IllegalArgumentException if the namespace is invalid
   */
  public static Builder builder(RedisConnection connection, String namespace) {
    Objects.requireNonNull(connection, "connection");
    Builder b = new Builder(null, namespace);
    b.connection = connection;
    return b;
  }

  /**
   * This instance's id among the instances of per-instance thresholds.
   *
   * @return the instance id
   */
  public String instanceId() {
    return instanceId;
  }

  /**
   * Waits until the connection to Redis is up, at most {@code timeout}, and tells whether it is.
   * Starts an attempt at once if none is under way. Optional: an application that wants shared
   * decisions from its first call waits here at start-up; calls made meanwhile decide locally.
   *
   * <pre>{@code
   * RedisTokenService tokens = RedisTokenService.of("redis://redis:6379", "shop");
   * if (!tokens.awaitConnected(Duration.ofSeconds(2))) {
   *   log.warn("Redis not reachable yet: cluster rules decide locally until it is");
   * }
   * }</pre>
   *
   * @param timeout the longest wait, real time; zero or positive
   * @return whether the service is connected (false once closed, or when the attempt failed or
   *     did not end within the timeout)
   * @throws IllegalArgumentException if the timeout is negative
   */
  public boolean awaitConnected(Duration timeout) {
    return connector.awaitConnected(timeout) && !calls.closed();
  }

  /**
   * Whether the backend answered the last request (false from the failure that starts a back-off
   * until the next answer).
   *
   * @return whether Redis is available
   */
  public boolean available() {
    return availability.available();
  }

  /**
   * Reads now whether the Redis server may evict this service's keys, and what it saw evicted:
   * its {@code maxmemory-policy} and {@code maxmemory} ({@code CONFIG GET}), its {@code
   * evicted_keys} ({@code INFO stats}), and how often this service found a flow id's quotas lost
   * and restored them. A few commands per server, on the caller's thread, each within the request
   * timeout; for a health check or a dashboard, never the call path. A policy that evicts is also
   * logged (warning, {@link System.Logger} {@code dev.guard.redis}) once per connection, and each
   * reading logs what changed since the last (docs/CLUSTER.md, "When Redis evicts keys").
   *
   * <pre>{@code
   * Eviction eviction = tokens.eviction();
   * boolean safe = eviction.risk() == Eviction.Risk.NONE;
   * }</pre>
   *
   * @return the reading; {@link Eviction.Risk#UNKNOWN} when not connected or Redis would not say
   */
  public Eviction eviction() {
    return connector.eviction();
  }

  /** How often a request found a flow id's quotas lost and restored them. */
  long restoredStates() {
    return quotaStates.restored();
  }

  /**
   * Counts the instances that asked about the flow id within the instance expiry, on the window's
   * clock (one read-only script call; empty when Redis cannot be asked).
   */
  @Override
  public OptionalInt instances(String flowId) {
    Connector.Link link = calls.closed() ? null : calls.link();
    if (link == null) {
      return OptionalInt.empty();
    }
    Long count = calls.run(link, Scripts.COUNT_INSTANCES, ScriptOutputType.INTEGER,
        new String[] {calls.prefix(flowId) + ":i"}, calls.instanceExpiryMs(), calls.windowTime());
    return count == null ? OptionalInt.empty() : OptionalInt.of(count.intValue());
  }

  @Override
  public void addAvailabilityListener(AvailabilityListener listener) {
    availability.addListener(Objects.requireNonNull(listener, "listener"));
  }

  @Override
  public void removeAvailabilityListener(AvailabilityListener listener) {
    availability.removeListener(Objects.requireNonNull(listener, "listener"));
  }

  @Override
  public TokenService.Result requestToken(FlowRule rule, int permits, boolean prioritized) {
    return flowTokens.request(rule, permits, prioritized);
  }

  /**
   * Gives a grant back: exactly, to the bucket of every window that counted it (one script call),
   * or in leased mode, for a grant without an id, to the running lease (no round trip; after the
   * lease ended the permits are lost, as any left in it). Failures are counted and ignored.
   */
  @Override
  public void giveBack(FlowRule rule, int permits, TokenService.Result grant) {
    flowTokens.giveBack(rule, permits, grant);
  }

  /**
   * Decides a value of a cluster per-value rule in one script call over the flow id's two value
   * keys (one hash slot): always exact, also in leased mode. Failures answer {@code FAILED}.
   */
  @Override
  public TokenService.Result requestValueToken(PerValueRule rule, Object value, int permits) {
    return budgets.requestValue(rule, value, permits);
  }

  /** Gives a value's tokens back to every bucket of it (one script call); failures are ignored. */
  @Override
  public void giveBackValue(PerValueRule rule, Object value, int permits) {
    budgets.giveBackValue(rule, value, permits);
  }

  /**
   * Decides the quotas of a cluster flow rule in one script call over the flow id's two quota
   * keys (one hash slot): the per-value script on one constant field. Failures answer {@code
   * FAILED}.
   */
  @Override
  public TokenService.Result requestQuota(FlowRule rule, int permits) {
    return budgets.requestQuota(rule, permits);
  }

  /** Gives a call back to every quota of a cluster flow rule; failures are ignored. */
  @Override
  public void giveBackQuota(FlowRule rule, int permits) {
    budgets.giveBackQuota(rule, permits);
  }

  @Override
  public TokenService.Result acquireConcurrency(FlowRule rule, int permits) {
    return concurrency.acquire(rule, permits);
  }

  @Override
  public boolean releaseConcurrency(long tokenId) {
    return concurrency.release(tokenId);
  }

  /**
   * Closes the connection and releases the client's threads; concurrency tokens this instance
   * still holds are given back first (best effort: those that cannot be expire with their lease).
   */
  @Override
  public void close() {
    if (calls.closed()) {
      return;
    }
    concurrency.giveBackAll();
    calls.close();
    detach.run();
    if (ownsConnection) {
      connector.close();
    }
  }

  /** Where the service connects and its namespace (no credentials). */
  @Override
  public String toString() {
    return "RedisTokenService[" + (connector.cluster() ? "cluster " : "") + connector.servers()
        + ", namespace=" + namespace + ", instance=" + instanceId + "]";
  }

  /** Settings of a {@link RedisTokenService}. */
  public static final class Builder {
    private final List<String> uris = new ArrayList<>();
    private final String namespace;
    private boolean cluster;
    private int lease;
    private int maxRequestsPerSecond;
    private String instanceId = UUID.randomUUID().toString();
    private Duration requestTimeout = Duration.ofMillis(20);
    private Duration connectTimeout = Duration.ofSeconds(1);
    private Duration instanceExpiry = Duration.ofSeconds(5);
    private int failuresBeforeBackOff = 3;
    private Duration backOff = Duration.ofSeconds(1);
    private @Nullable Consumer<Boolean> availability;
    private TimeSource clock = GuardEngine.systemTime();
    private @Nullable TimeSource windowClock;

    private @Nullable RedisConnection connection;

    private Builder(@Nullable String uri, String namespace) {
      if (uri != null) {
        uris.addAll(Servers.split(uri));
      }
      this.namespace = Connector.namespace(namespace);
    }

    private void ownConnection(String option) {
      if (connection != null) {
        throw new IllegalStateException(option + " is the shared RedisConnection's setting; set it "
            + "on RedisConnection.builder");
      }
    }

    /**
     * Connects to a Redis Cluster: the uri names one or more seed nodes (separated by commas),
     * from which the client learns the cluster's topology; each flow id's keys live on the node
     * that owns their hash slot.
     *
     * @return this builder
     * @throws IllegalStateException on a builder for a shared {@link RedisConnection}
     */
    public Builder cluster() {
      ownConnection("cluster()");
      this.cluster = true;
      return this;
    }

    /**
     * Turns on leased mode: a request that reaches Redis takes up to {@code batch} permits from
     * the shared window at once, and the instance spends the rest locally, without a round trip,
     * until they are used or the window's bucket they were counted in ends; permits left then are
     * lost. A lease starts at 1 permit and doubles up to {@code batch} while leases are used up
     * (it halves when one ends with permits left). No window admits more than the exact mode
     * would; up to {@code instances × (batch − 1)} permits per bucket may go unused
     * (docs/BEHAVIOUR.md, "Leased mode"). Prioritized requests always ask Redis. Default: off.
     *
     * @param batch the most permits one request takes; {@code > 1}
     * @return this builder
     * @throws IllegalArgumentException if {@code batch <= 1}
     * @throws IllegalStateException if leased mode is already set
     */
    public Builder lease(int batch) {
      if (batch <= 1) {
        throw new IllegalArgumentException("lease must be > 1, was " + batch);
      }
      if (lease != 0) {
        throw new IllegalStateException("lease is already set to " + lease);
      }
      this.lease = batch;
      return this;
    }

    /**
     * Limits how many requests of this namespace Redis answers per second (a sliding second of
     * ten 100 ms buckets, counted in Redis for all instances); a request over the limit is
     * answered {@link TokenService.Result#TOO_MANY_REQUESTS}, so its call falls back as the rule says.
     * Local decisions of leased mode are not requests. On Redis Cluster the namespace's counter
     * lives on its own node, so a request costs a second round trip. Default: no limit.
     *
     * @param max requests per second; {@code > 0}
     * @return this builder
     * @throws IllegalArgumentException if {@code max <= 0}
     */
    public Builder maxRequestsPerSecond(int max) {
      if (max <= 0) {
        throw new IllegalArgumentException("maxRequestsPerSecond must be > 0, was " + max);
      }
      this.maxRequestsPerSecond = max;
      return this;
    }

    /**
     * Sets how long a call waits for Redis before it falls back (default 20 ms).
     *
     * @param timeout positive
     * @return this builder
     */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive("requestTimeout", timeout);
      return this;
    }

    /**
     * Sets how long a connection attempt may take in the background (default 1 s); calls never
     * wait for it.
     *
     * @param timeout positive
     * @return this builder
     * @throws IllegalStateException on a builder for a shared {@link RedisConnection}
     */
    public Builder connectTimeout(Duration timeout) {
      ownConnection("connectTimeout");
      this.connectTimeout = positive("connectTimeout", timeout);
      return this;
    }

    /**
     * Sets how long an instance counts for per-instance thresholds after its last request
     * (default 5 s).
     *
     * @param expiry positive
     * @return this builder
     */
    public Builder instanceExpiry(Duration expiry) {
      this.instanceExpiry = positive("instanceExpiry", expiry);
      return this;
    }

    /**
     * Sets this instance's id (default: a random UUID).
     *
     * @param id 1 to 128 letters, digits or {@code . _ : @ -}
     * @return this builder
     */
    public Builder instanceId(String id) {
      this.instanceId = InstanceIds.check(id);
      return this;
    }

    /**
     * Sets after how many failures in a row the service stops asking, and for how long. The
     * period is also the retry interval of the connection: an attempt starts at most once per
     * period.
     *
     * @param failures failures in a row; {@code > 0}
     * @param period how long to answer FAILED without asking; zero or positive
     * @return this builder
     */
    public Builder backOff(int failures, Duration period) {
      if (failures <= 0) {
        throw new IllegalArgumentException("failures must be > 0, was " + failures);
      }
      Objects.requireNonNull(period, "period");
      if (period.isNegative()) {
        throw new IllegalArgumentException("period must not be negative, was " + period);
      }
      this.failuresBeforeBackOff = failures;
      this.backOff = period;
      return this;
    }

    /**
     * Sets a listener told {@code false} once when the backend becomes unavailable (the service
     * starts backing off) and {@code true} once when it answers again.
     *
     * @param listener the listener
     * @return this builder
     */
    public Builder onAvailability(Consumer<Boolean> listener) {
      this.availability = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Sets the time source of the back-off period, of the connection's retry schedule and of
     * leases (default {@link GuardEngine#systemTime()}); the shared windows run on the Redis server's
     * clock unless {@link #windowClock} says otherwise.
     *
     * @param timeSource the time source
     * @return this builder
     */
    public Builder clock(TimeSource timeSource) {
      this.clock = Objects.requireNonNull(timeSource, "clock");
      return this;
    }

    /**
     * Decides the shared windows on this time source's {@link TimeSource#wallTime() wall time}
     * instead of the Redis server's clock. Every instance sharing a flow id must then use clocks
     * that agree (one {@code ManualClock} for the engines of a test; NTP-synchronised hosts at
     * best): a skewed instance moves the windows for all. The default, the server's clock, cannot
     * be skewed by an instance.
     *
     * @param timeSource the time source whose wall time places the windows
     * @return this builder
     */
    public Builder windowClock(TimeSource timeSource) {
      this.windowClock = Objects.requireNonNull(timeSource, "windowClock");
      return this;
    }

    /**
     * Creates the service and returns at once; the connection is made in the background ({@link
     * RedisTokenService#awaitConnected} waits for it).
     *
     * @return the service
     * @throws IllegalArgumentException if several servers are given without {@link #cluster()}
     */
    public RedisTokenService build() {
      if (uris.size() > 1 && !cluster) {
        throw new IllegalArgumentException(
            "uri must name one server unless cluster() is set, was "
            + Servers.redact(String.join(",", uris)));
      }
      return new RedisTokenService(this);
    }

    static Duration positive(String field, Duration value) {
      Objects.requireNonNull(value, field);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(field + " must be positive, was " + value);
      }
      return value;
    }
  }
}
