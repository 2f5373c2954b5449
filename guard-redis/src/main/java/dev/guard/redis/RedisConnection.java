package dev.guard.redis;

import java.util.concurrent.ThreadFactory;
import dev.guard.api.internal.Threads;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.TimeSource;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One connection to Redis that a {@link RedisTokenService}, a {@link RedisRuleSource} and a
 * {@link RedisFleet} of one instance share, instead of one client and connection each.
 *
 * <p>What "one" means: one Lettuce client and one connection that every user sends its commands
 * and scripts over (each waits for its answers at most its own request timeout), and that a rule
 * source listening for notices subscribes on too. An instance using all three therefore holds one
 * connection, where the three built from a uri hold three. A subscribed connection runs other
 * commands only under RESP3 (Redis 6 and later, which Lettuce negotiates by default), so the rule
 * source makes a pub/sub connection of its own on the same client, as a second connection, when
 * RESP2 was negotiated (an older server, or a {@link #wrapping wrapped} client configured with
 * {@code ProtocolVersion.RESP2}) and on Redis Cluster (whose pub/sub connection is not the routed
 * command connection).
 *
 * <pre>{@code
 * RedisConnection redis = RedisConnection.of("redis://redis:6379");
 * RedisTokenService tokens = RedisTokenService.builder(redis, "shop").build();
 * RedisRuleSource rules = RedisRuleSource.of(redis, "shop:guard-rules");
 * RedisFleet fleet = RedisFleet.builder(engine, redis, "shop").build();
 * ...
 * fleet.close(); rules.close(); tokens.close(); // they leave the shared connection open
 * redis.close();
 * }</pre>
 *
 * <p>Where: one server ({@code redis://host:port}, or {@code rediss://host:port} over TLS, trusting
 * the JVM's trust store unless {@link Builder#ssl} says otherwise), the master of a Redis Sentinel
 * group ({@code redis-sentinel://host:port[,host:port...]#master}: each connection asks a sentinel
 * for the current master, so one made after a failover goes to the new master), or a Redis
 * Cluster ({@link Builder#cluster()}). A uri with credentials ({@code redis://user:password@host})
 * or a Lettuce {@link RedisURI} built in code ({@link #builder(List)}) authenticates; credentials
 * appear in no message, log line or {@link #toString()}.
 *
 * <pre>{@code
 * RedisConnection tls = RedisConnection.builder("rediss://redis.internal:6380")
 *     .ssl(SslOptions.builder().trustManager(new File("/etc/redis/ca.crt")).build())
 *     .build();
 * RedisConnection sentinel =
 *     RedisConnection.of("redis-sentinel://10.0.0.1:26379,10.0.0.2:26379#shop");
 * }</pre>
 *
 * <p>The connection is made in the background and made again after a loss on the schedule of
 * docs/BEHAVIOUR.md, "On Redis" (one attempt per {@link Builder#retry retry interval}); a user's
 * own settings that concern the connection (its connect timeout, {@code cluster()}) are the
 * connection's here. {@link #of} and {@link #builder} make and own a client; {@link #wrapping}
 * borrows one the application has and never shuts it down. Closing the users leaves the
 * connection open; {@link #close()} closes it. Thread-safe.
 */
public final class RedisConnection implements AutoCloseable {

  private final Connector connector;

  private RedisConnection(Connector connector) {
    this.connector = connector;
  }

  /**
   * Connects to one server with the default settings; returns at once (the connection is made in
   * the background).
   *
   * @param uri the server, e.g. {@code redis://localhost:6379}
   * @return the connection
   */
  public static RedisConnection of(String uri) {
    return builder(uri).build();
  }

  /**
   * Starts configuring a connection.
   *
   * @param uri the server, e.g. {@code redis://localhost:6379}, {@code rediss://} for TLS, or a
   *     Sentinel group {@code redis-sentinel://host:port[,host:port...]#master}; for {@link
   *     Builder#cluster()} one or more seed nodes separated by commas
   * @return a builder
   * @throws IllegalArgumentException if the uri is not a Redis uri (the message masks
   *     credentials)
   */
  public static Builder builder(String uri) {
    return new Builder(Servers.parse(Servers.split(uri)));
  }

  /**
   * Starts configuring a connection to servers described in code, for settings a uri text cannot
   * carry (a Sentinel group whose sentinels have credentials of their own, say). guard connects
   * with copies: the uris stay as they are.
   *
   * <pre>{@code
   * RedisURI master = RedisURI.Builder.sentinel("10.0.0.1", 26379, "shop")
   *     .withAuthentication("guard", password)
   *     .build();
   * RedisConnection redis = RedisConnection.builder(List.of(master)).build();
   * }</pre>
   *
   * @param servers one server or Sentinel group, or, for {@link Builder#cluster()}, seed nodes
   * @return a builder
   * @throws IllegalArgumentException if the list is empty
   */
  public static Builder builder(List<RedisURI> servers) {
    Objects.requireNonNull(servers, "servers");
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("servers must name at least one server, was empty");
    }
    for (RedisURI server : servers) {
      Objects.requireNonNull(server, "servers");
    }
    return new Builder(servers);
  }

  /**
   * A connection on the application's own client to one server; closing it closes guard's
   * connections and leaves the client running. guard uses the client's options as they are (for
   * the schedule of docs/BEHAVIOUR.md, turn its automatic reconnection off).
   *
   * <pre>{@code
   * RedisConnection redis = RedisConnection.wrapping(lettuceClient, "redis://redis:6379");
   * }</pre>
   *
   * @param client the application's client; never shut down by guard
   * @param uri the server to connect to
   * @return the connection, connecting in the background
   */
  public static RedisConnection wrapping(RedisClient client, String uri) {
    Objects.requireNonNull(client, "client");
    return builder(uri).borrow(client).build();
  }

  /**
   * A connection on the application's own Redis Cluster client (to the seeds it was made with);
   * closing it closes guard's connections and leaves the client running.
   *
   * @param client the application's client; never shut down by guard
   * @return the connection, connecting in the background
   */
  public static RedisConnection wrapping(RedisClusterClient client) {
    Objects.requireNonNull(client, "client");
    Builder b = new Builder(List.of());
    b.cluster = true;
    return b.borrow(client).build();
  }

  /** A connection one user makes for itself from a uri, not yet connecting. */
  static RedisConnection own(List<String> uris, boolean cluster, Duration requestTimeout,
      Duration connectTimeout, Duration retry, TimeSource clock, String clientName) {
    return new RedisConnection(new Connector(Servers.parse(uris), cluster, null, requestTimeout,
        connectTimeout, retry, clock, clientName, null, Threads.daemons()));
  }

  Connector connector() {
    return connector;
  }

  /**
   * Waits until the connection is up, at most {@code timeout} of real time, and tells whether it
   * is; starts an attempt at once if none is under way.
   *
   * @param timeout the longest wait; zero or positive
   * @return whether the connection is up (false once closed)
   * @throws IllegalArgumentException if the timeout is negative
   */
  public boolean awaitConnected(Duration timeout) {
    return connector.awaitConnected(timeout);
  }

  /**
   * Closes the connections, and the client unless it was {@link #wrapping borrowed}. Its users
   * answer as after a lost connection from then on; close them first.
   */
  @Override
  public void close() {
    connector.close();
  }

  /** Where it connects (no credentials). */
  @Override
  public String toString() {
    return "RedisConnection[" + (connector.cluster() ? "cluster " : "") + connector.servers()
        + "]";
  }

  /** Settings of a {@link RedisConnection}; every option may be set once. */
  public static final class Builder {
    private final List<RedisURI> uris;
    private boolean cluster;
    private @Nullable SslOptions ssl;
    private Duration connectTimeout = Duration.ofSeconds(1);
    private Duration retry = Duration.ofSeconds(1);
    private TimeSource clock = GuardEngine.systemTime();
    private @Nullable AbstractRedisClient borrowed;
    private ThreadFactory threads = Threads.daemons();

    private Builder(List<RedisURI> uris) {
      this.uris = List.copyOf(uris);
    }

    private Builder borrow(AbstractRedisClient client) {
      this.borrowed = client;
      return this;
    }

    /**
     * Connects to a Redis Cluster: the uri names one or more seed nodes.
     *
     * @return this builder
     */
    public Builder cluster() {
      this.cluster = true;
      return this;
    }

    /**
     * Sets how the client trusts a TLS server ({@code rediss://}, or a {@link RedisURI} with SSL)
     * and, if the server asks, which certificate it presents; without it the JVM's trust store
     * decides. A server the client does not trust is no exception to guard's users: each attempt
     * fails, shared limits decide as for an outage, and a warning says why.
     *
     * <pre>{@code
     * builder.ssl(SslOptions.builder().trustManager(new File("ca.crt")).build());
     * }</pre>
     *
     * @param options Lettuce's TLS settings
     * @return this builder
     * @throws IllegalStateException if set before
     */
    public Builder ssl(SslOptions options) {
      Objects.requireNonNull(options, "ssl");
      if (ssl != null) {
        throw new IllegalStateException("ssl is set already");
      }
      this.ssl = options;
      return this;
    }

    /**
     * Sets how long making the connection may take (default 1 s); it also bounds the commands
     * that are not a user's (the eviction check, subscribing).
     *
     * @param timeout positive
     * @return this builder
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = RedisTokenService.Builder.positive("connectTimeout", timeout);
      return this;
    }

    /**
     * Sets the least time between two attempts to connect (default 1 s), on the {@link #clock}.
     *
     * @param interval zero or positive
     * @return this builder
     */
    public Builder retry(Duration interval) {
      Objects.requireNonNull(interval, "retry");
      if (interval.isNegative()) {
        throw new IllegalArgumentException("retry must not be negative, was " + interval);
      }
      this.retry = interval;
      return this;
    }

    /**
     * Sets the time source of the retry schedule (default: the system's).
     *
     * @param timeSource the clock
     * @return this builder
     */
    public Builder clock(TimeSource timeSource) {
      this.clock = Objects.requireNonNull(timeSource, "clock");
      return this;
    }

    /**
     * Sets where the connection's own thread (its connect attempts and eviction checks) comes from
     * (default: a platform thread); guard names it and makes it a daemon. Lettuce's I/O threads
     * are the client's.
     *
     * @param factory makes an unstarted thread for a task
     * @return this builder
     */
    public Builder threads(ThreadFactory factory) {
      this.threads = Objects.requireNonNull(factory, "threads");
      return this;
    }

    /**
     * Creates the connection and starts connecting in the background.
     *
     * @return the connection
     * @throws IllegalArgumentException if several servers are given without {@link #cluster()}
     */
    public RedisConnection build() {
      if (uris.size() > 1 && !cluster) {
        throw new IllegalArgumentException(
            "uri must name one server unless cluster() is set, was " + Servers.describe(uris));
      }
      Connector connector = new Connector(uris, cluster, ssl, null, connectTimeout, retry, clock,
          "guard", borrowed, threads);
      connector.begin();
      return new RedisConnection(connector);
    }
  }
}
