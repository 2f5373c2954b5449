package dev.guard.redis;

import dev.guard.api.TimeSource;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.ClusterThreshold;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.TokenResult;
import dev.guard.engine.TokenService;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.ConnectionFuture;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TokenService} on Redis: every instance that connects to the same server and namespace
 * shares the windows of its cluster flow rules.
 *
 * <pre>{@code
 * RedisTokenService tokens = RedisTokenService.connect("redis://localhost:6379", "shop");
 * GuardEngine engine = GuardEngine.builder().tokenService(tokens).build();
 * }</pre>
 *
 * <p>Each request runs one Lua script that reads the server's clock and decides atomically
 * (docs/BEHAVIOUR.md, "Cluster flow control"), so the instances' clocks may disagree. A flow id's
 * keys share one hash slot ({@code guard:{namespace:flowId}:...}), so the service also works on
 * Redis Cluster. Per-instance thresholds count the instances that asked about the flow id within
 * the instance expiry (default 5 s).
 *
 * <p>Failure never reaches the guarded code: a request that gets no answer within the request
 * timeout (default 20 ms), a lost connection, or any Redis error answers {@link
 * TokenResult#FAILED}, and the engine falls back as the rule says. After {@code
 * failuresBeforeBackOff} failures in a row the service stops asking for the back-off period
 * (default 1 s) and answers FAILED at once, then lets requests probe again. A script the server
 * lost (restart, failover) is loaded again transparently.
 */
public final class RedisTokenService implements TokenService, AutoCloseable {

  private static final String SCRIPT = readScript();
  private static final String SHA = sha1(SCRIPT);

  private final RedisClient client;
  private final RedisURI uri;
  private final String namespace;
  private final String instanceId;
  private final String instanceExpiryMs;
  private final long requestTimeoutNanos;
  private final int failuresBeforeBackOff;
  private final long backOffNanos;
  private final @Nullable Consumer<Boolean> availability;
  private final TimeSource clock;

  private final Object lock = new Object();
  private @Nullable ConnectionFuture<StatefulRedisConnection<String, String>> connecting;
  private volatile @Nullable StatefulRedisConnection<String, String> connection;
  private int failuresInARow;
  private volatile long backOffUntilNanos;
  private boolean available = true;
  private volatile boolean closed;

  private RedisTokenService(Builder b) {
    this.uri = RedisURI.create(b.uri);
    this.namespace = b.namespace;
    this.instanceId = b.instanceId;
    this.instanceExpiryMs = Long.toString(b.instanceExpiry.toMillis());
    this.requestTimeoutNanos = b.requestTimeout.toNanos();
    this.failuresBeforeBackOff = b.failuresBeforeBackOff;
    this.backOffNanos = b.backOff.toNanos();
    this.availability = b.availability;
    this.clock = b.clock;
    this.client = RedisClient.create();
    client.setOptions(ClientOptions.builder()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(TimeoutOptions.enabled(b.requestTimeout))
        .socketOptions(SocketOptions.builder().connectTimeout(b.connectTimeout).build())
        .build());
  }

  /**
   * Connects to Redis with the default settings. The connection is made in the background: the
   * service answers {@link TokenResult#FAILED} until it is up.
   *
   * @param uri the server, e.g. {@code redis://localhost:6379}
   * @param namespace the namespace whose flow ids are shared; not blank
   * @return the service
   */
  public static RedisTokenService connect(String uri, String namespace) {
    return builder(uri, namespace).build();
  }

  /**
   * Starts configuring a service.
   *
   * @param uri the server, e.g. {@code redis://localhost:6379}
   * @param namespace the namespace whose flow ids are shared; not blank
   * @return a builder
   */
  public static Builder builder(String uri, String namespace) {
    return new Builder(uri, namespace);
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
   * Whether the backend answered the last request (false while the service backs off).
   *
   * @return whether Redis is available
   */
  public boolean available() {
    synchronized (lock) {
      return available;
    }
  }

  @Override
  public TokenResult requestToken(FlowRule rule, int permits, boolean prioritized) {
    ClusterMode mode = rule.cluster();
    if (mode == null || permits <= 0 || closed) {
      return TokenResult.FAILED;
    }
    if (backOffUntilNanos != 0 && clock.nanoTime() - backOffUntilNanos < 0) {
      return TokenResult.FAILED;
    }
    StatefulRedisConnection<String, String> redis = connection();
    if (redis == null) {
      return failed();
    }
    String key = "guard:{" + namespace + ":" + mode.flowId() + "}";
    String[] keys = {key + ":w", key + ":i"};
    String[] args = {
      Double.toString(rule.count()),
      mode.threshold() == ClusterThreshold.PER_INSTANCE ? "1" : "0",
      Long.toString(mode.bucketMs()),
      Integer.toString(mode.buckets()),
      Integer.toString(permits),
      prioritized ? "1" : "0",
      instanceId,
      instanceExpiryMs
    };
    List<Object> answer;
    try {
      try {
        answer = redis.sync().evalsha(SHA, ScriptOutputType.MULTI, keys, args);
      } catch (RedisNoScriptException notLoaded) {
        answer = redis.sync().eval(SCRIPT, ScriptOutputType.MULTI, keys, args);
      }
    } catch (RuntimeException failure) {
      return failed();
    }
    succeeded();
    long code = (Long) answer.get(0);
    long value = (Long) answer.get(1);
    if (code == 0) {
      return TokenResult.ok(value);
    }
    if (code == 1) {
      return TokenResult.shouldWait(Math.max(0, value));
    }
    return TokenResult.BLOCKED;
  }

  /** The connection, or null while it is being made (waiting at most the request timeout). */
  private @Nullable StatefulRedisConnection<String, String> connection() {
    StatefulRedisConnection<String, String> ready = connection;
    if (ready != null) {
      return ready;
    }
    ConnectionFuture<StatefulRedisConnection<String, String>> pending;
    synchronized (lock) {
      if (connection != null) {
        return connection;
      }
      if (connecting == null || connecting.toCompletableFuture().isCompletedExceptionally()) {
        connecting = client.connectAsync(StringCodec.UTF8, uri);
      }
      pending = connecting;
    }
    try {
      StatefulRedisConnection<String, String> made =
          pending.get(requestTimeoutNanos, TimeUnit.NANOSECONDS);
      synchronized (lock) {
        if (connection == null) {
          connection = made;
        }
        return connection;
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception notYet) {
      return null;
    }
  }

  private TokenResult failed() {
    boolean tell = false;
    synchronized (lock) {
      failuresInARow++;
      if (failuresInARow >= failuresBeforeBackOff) {
        backOffUntilNanos = clock.nanoTime() + backOffNanos;
        failuresInARow = failuresBeforeBackOff - 1; // the next failure after the back-off reopens
        if (available) {
          available = false;
          tell = true;
        }
      }
    }
    if (tell) {
      tell(false);
    }
    return TokenResult.FAILED;
  }

  private void succeeded() {
    boolean tell = false;
    synchronized (lock) {
      failuresInARow = 0;
      backOffUntilNanos = 0;
      if (!available) {
        available = true;
        tell = true;
      }
    }
    if (tell) {
      tell(true);
    }
  }

  private void tell(boolean up) {
    Consumer<Boolean> listener = availability;
    if (listener != null) {
      try {
        listener.accept(up);
      } catch (RuntimeException ignored) {
        // a failing listener must not fail the call
      }
    }
  }

  /** Closes the connection and releases the client's threads. */
  @Override
  public void close() {
    closed = true;
    StatefulRedisConnection<String, String> open;
    synchronized (lock) {
      open = connection;
      connection = null;
    }
    if (open != null) {
      open.close();
    }
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }

  private static String readScript() {
    try (InputStream in = Objects.requireNonNull(
        RedisTokenService.class.getResourceAsStream("request-token.lua"), "request-token.lua")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read request-token.lua", e);
    }
  }

  private static String sha1(String text) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Settings of a {@link RedisTokenService}. */
  public static final class Builder {
    private final String uri;
    private final String namespace;
    private String instanceId = UUID.randomUUID().toString();
    private Duration requestTimeout = Duration.ofMillis(20);
    private Duration connectTimeout = Duration.ofSeconds(1);
    private Duration instanceExpiry = Duration.ofSeconds(5);
    private int failuresBeforeBackOff = 3;
    private Duration backOff = Duration.ofSeconds(1);
    private @Nullable Consumer<Boolean> availability;
    private TimeSource clock = TimeSource.system();

    private Builder(String uri, String namespace) {
      this.uri = Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(namespace, "namespace");
      if (namespace.isBlank()) {
        throw new IllegalArgumentException("namespace must not be blank, was '" + namespace + "'");
      }
      this.namespace = namespace.strip();
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
     * Sets how long a connection attempt may take in the background (default 1 s).
     *
     * @param timeout positive
     * @return this builder
     */
    public Builder connectTimeout(Duration timeout) {
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
     * @param id not blank
     * @return this builder
     */
    public Builder instanceId(String id) {
      Objects.requireNonNull(id, "instanceId");
      if (id.isBlank()) {
        throw new IllegalArgumentException("instanceId must not be blank, was '" + id + "'");
      }
      this.instanceId = id;
      return this;
    }

    /**
     * Sets after how many failures in a row the service stops asking, and for how long.
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
     * Sets the time source of the back-off period (default {@link TimeSource#system()}); the
     * shared windows always run on the Redis server's clock.
     *
     * @param timeSource the time source
     * @return this builder
     */
    public Builder clock(TimeSource timeSource) {
      this.clock = Objects.requireNonNull(timeSource, "clock");
      return this;
    }

    /**
     * Creates the service; the connection is made in the background.
     *
     * @return the service
     */
    public RedisTokenService build() {
      return new RedisTokenService(this);
    }

    private static Duration positive(String field, Duration value) {
      Objects.requireNonNull(value, field);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(field + " must be positive, was " + value);
      }
      return value;
    }
  }
}
