package dev.guard.redis;

import java.util.concurrent.ThreadFactory;
import dev.guard.api.internal.Threads;
import dev.guard.spi.TimeSource;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.sync.RedisServerCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The connection of a {@link RedisTokenService} or a {@link RedisFleet} to one server or to a
 * Redis Cluster; the scripts they run over it are {@link Scripts}.
 *
 * <p>Connecting happens off the callers' threads: the first attempt starts when the connector is
 * made, on a thread of its own that also creates the Lettuce client ({@link Clients}). {@link
 * #link()} never waits: it returns the connection when it is up and null otherwise, so a call
 * decides locally until the connection is ready. Attempts follow one schedule on the service's
 * clock: a new one starts at the first {@link #link()} at least one retry interval after the
 * previous one started (or at once through {@link #awaitConnected}). On one server Lettuce does
 * not reconnect by itself: a lost connection is dropped and made again on that schedule, so the
 * service, not the client library, decides when it tries again.
 *
 * <p>What counts as a failure (for {@link Availability}): a lost connection and having none while
 * no attempt is under way make {@link #link()} throw; an attempt that fails tells {@code failed}
 * when it ends (on the connector's thread). An attempt under way is no failure: a slow start does
 * not look like an outage.
 *
 * <p>On one server the connection is a pub/sub connection: where it speaks RESP3, a rule source
 * subscribes on it as well, so the instance holds one connection ({@link Subscriptions}). On Redis
 * Cluster, Lettuce routes a script to the node of its first key's hash slot; every key of one
 * script call shares that slot by its {@code {..}} hash tag.
 */
final class Connector {

  /**
   * The commands the service uses, from a connection to one server or to a cluster, the server
   * commands of each primary (one for a single server), for the eviction check, and the channels
   * subscribed on the connection itself when it can subscribe (null: each subscriber needs a
   * pub/sub connection of its own).
   */
  record Link(
      StatefulConnection<String, String> connection,
      RedisClusterAsyncCommands<String, String> commands,
      Supplier<List<RedisServerCommands<String, String>>> primaries,
      @Nullable Subscriptions subscriptions) {}

  private final List<RedisURI> uris;
  private final boolean cluster;
  private final @Nullable SslOptions ssl;
  private final @Nullable Duration requestTimeout;
  private final Duration connectTimeout;
  private final Duration retry;
  private final TimeSource clock;
  private final @Nullable AbstractRedisClient borrowed;
  private final List<Runnable> failed = new CopyOnWriteArrayList<>();
  private final List<LongSupplier> restored = new CopyOnWriteArrayList<>();
  private final EvictionWatch eviction;
  private final AttemptLog failures;
  private final ThreadPoolExecutor own;
  /** The latest thread of {@link #own}, joined on close so that no attempt outlives it. */
  private volatile @Nullable Thread worker;
  private final Object lock = new Object();
  private volatile Clients.@Nullable Made client; // written on the connector's thread only
  private volatile @Nullable Link link;
  private @Nullable CompletableFuture<@Nullable Link> attempt;
  private long attemptStartedNanos;
  private boolean closed;

  /**
   * Makes the connector; {@link #begin()} starts the first attempt in the background.
   *
   * @param uris the servers; guard connects with its own copies of them
   * @param ssl how a client guard makes trusts a TLS server; null for the JVM's defaults
   * @param requestTimeout the client's own bound on a command, or null for none (each user waits
   *     at most its own timeout)
   * @param retry the least time between two attempts, on {@code clock}
   * @param clientName the name the connections give the server ({@code CLIENT SETNAME})
   * @param borrowed the application's client to connect with, never shut down here; null to make
   *     one (and shut it down on {@link #close()})
   * @param threads where the connector's own thread comes from
   */
  Connector(List<RedisURI> uris, boolean cluster, @Nullable SslOptions ssl,
      @Nullable Duration requestTimeout,
      Duration connectTimeout,
      Duration retry, TimeSource clock, String clientName,
      @Nullable AbstractRedisClient borrowed, ThreadFactory threads) {
    this.uris = new ArrayList<>();
    for (RedisURI uri : uris) {
      this.uris.add(Servers.copy(uri, connectTimeout, clientName));
    }
    this.borrowed = borrowed;
    this.client = borrowed == null ? null : new Clients.Made(borrowed, null);
    this.cluster = cluster;
    this.ssl = ssl;
    this.requestTimeout = requestTimeout;
    this.connectTimeout = connectTimeout;
    this.retry = retry;
    this.clock = clock;
    this.eviction = new EvictionWatch(servers(), () -> {
      long sum = 0;
      for (LongSupplier count : restored) {
        sum += count.getAsLong();
      }
      return sum;
    });
    this.failures = new AttemptLog(servers());
    this.own = new ThreadPoolExecutor(1, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        task -> {
          Thread thread = Threads.make(threads, "guard-redis connect " + servers(), task);
          worker = thread;
          return thread;
        });
    own.allowCoreThreadTimeOut(true);
  }

  /** Starts the first attempt in the background. */
  void begin() {
    synchronized (lock) {
      if (attempt == null && link == null && !closed) {
        start();
      }
    }
  }

  /**
   * Adds a user of the connection.
   *
   * @param onFailure told when an attempt fails (on the connector's thread)
   * @param restoredStates the user's count of restored quota states, for the eviction check
   * @return what removes the user again
   */
  Runnable attach(Runnable onFailure, LongSupplier restoredStates) {
    failed.add(onFailure);
    restored.add(restoredStates);
    return () -> {
      failed.remove(onFailure);
      restored.remove(restoredStates);
    };
  }

  /**
   * Subscribes to a channel: on the link's own connection when it can subscribe (one server,
   * RESP3), else on a pub/sub connection of the subscriber's own on the same client.
   *
   * @param link the connection {@link #link()} gave
   * @param onMessage told of each message on the channel, on the client's I/O thread
   * @param timeout the longest wait for the subscription (and the connection) to be made
   * @throws RuntimeException if it could not be made; nothing is left subscribed
   */
  Subscriptions.Subscription subscribe(Link link, String channel, Runnable onMessage,
      Duration timeout) {
    Subscriptions shared = link.subscriptions();
    if (shared != null) {
      return shared.subscribe(channel, onMessage, timeout);
    }
    return Subscriptions.own(connectPubSub(), channel, onMessage, timeout);
  }

  /**
   * Makes a connection for pub/sub on the same client, once {@link #awaitConnected} succeeded.
   *
   * @throws IllegalStateException if the connector has no client yet, or is closed
   */
  private StatefulRedisPubSubConnection<String, String> connectPubSub() {
    Clients.Made made = client;
    synchronized (lock) {
      if (made == null || closed) {
        throw new IllegalStateException("not connected to " + servers());
      }
    }
    if (made.client() instanceof RedisClusterClient clusterClient) {
      return clusterClient.connectPubSub(StringCodec.UTF8);
    }
    return ((RedisClient) made.client()).connectPubSub(StringCodec.UTF8, uris.get(0));
  }

  /**
   * Waits for a command's answer at most {@code timeout}, as Lettuce's synchronous API does.
   *
   * @throws io.lettuce.core.RedisCommandTimeoutException if no answer came in time (the command
   *     is cancelled; its answer is dropped when it comes)
   * @throws io.lettuce.core.RedisException if Redis answered with an error, or the connection
   *     failed
   */
  static <T> T await(RedisFuture<T> answer, Duration timeout) {
    return LettuceFutures.awaitOrCancel(answer, timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  boolean cluster() {
    return cluster;
  }

  /** The servers as {@code host:port}, comma-separated (no credentials). */
  String servers() {
    return uris.isEmpty() ? "the application's Redis Cluster client" : Servers.describe(uris);
  }

  /**
   * The connection if it is up; null while an attempt is under way (one is started if it is due).
   * Never waits.
   *
   * @throws IllegalStateException if the connection was lost, or there is none and no attempt is
   *     under way (a failure)
   */
  @Nullable Link link() {
    Link up = link;
    if (up != null && up.connection().isOpen()) {
      return up;
    }
    synchronized (lock) {
      if (closed) {
        return null;
      }
      up = link;
      if (up != null && !up.connection().isOpen()) {
        link = null;
        Link lost = up;
        try {
          own.execute(() -> closeQuietly(lost)); // not on the caller's thread
        } catch (RejectedExecutionException closing) {
          // the client's shutdown closes it
        }
        startIfDue();
        throw new IllegalStateException("lost the connection to " + servers());
      }
      if (up != null || attempt != null || startIfDue()) {
        return up;
      }
      throw new IllegalStateException("not connected to " + servers()
          + "; the next attempt starts one retry interval after the last");
    }
  }

  /**
   * Waits until the connection is up, at most {@code timeout} of real time; starts an attempt at
   * once if none is under way.
   *
   * @return whether the connection is up
   * @throws IllegalArgumentException if the timeout is negative
   */
  boolean awaitConnected(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
    }
    CompletableFuture<@Nullable Link> pending;
    synchronized (lock) {
      Link up = link;
      if (closed || up != null && up.connection().isOpen()) {
        return !closed;
      }
      if (attempt == null) {
        start();
      }
      pending = attempt;
    }
    if (pending == null) {
      return false;
    }
    try {
      return pending.get(timeout.toNanos(), TimeUnit.NANOSECONDS) != null;
    } catch (TimeoutException | ExecutionException notYet) {
      return false;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Starts an attempt if none is under way and the last one started a retry interval ago. */
  private boolean startIfDue() {
    if (attempt != null) {
      return false;
    }
    if (clock.nanoTime() - attemptStartedNanos - retry.toNanos() < 0) {
      return false;
    }
    start();
    return attempt != null;
  }

  /**
   * Starts an attempt on the connector's thread; the future ends with the connection, or with
   * null once a failure was told.
   */
  private void start() {
    attemptStartedNanos = clock.nanoTime();
    CompletableFuture<@Nullable Link> started = new CompletableFuture<>();
    try {
      own.execute(() -> connect().whenComplete((made, error) -> {
        failures.attempted(error);
        settle(started, made);
      }));
    } catch (RejectedExecutionException closing) {
      return;
    }
    attempt = started;
  }

  /** Takes an attempt's outcome in: keeps the connection, or tells the failure (own thread). */
  private void settle(CompletableFuture<@Nullable Link> started, @Nullable Link made) {
    boolean keep;
    synchronized (lock) {
      if (attempt == started) {
        attempt = null;
      }
      keep = made != null && !closed;
      if (keep) {
        link = made;
      }
    }
    if (made != null) {
      if (!keep) {
        closeQuietly(made);
      } else {
        checkEviction(made);
      }
      started.complete(keep ? made : null);
      return;
    }
    try {
      own.execute(() -> {
        for (Runnable listener : failed) {
          listener.run();
        }
        started.complete(null);
      });
    } catch (RejectedExecutionException closing) {
      started.complete(null);
    }
  }

  /** Connects (creating the client first); runs on the connector's thread. */
  private CompletableFuture<Link> connect() {
    try {
      Clients.Made made = client;
      if (made == null) {
        made = cluster
            ? Clients.cluster(uris, ssl, requestTimeout, connectTimeout, retry)
            : Clients.single(ssl, requestTimeout, connectTimeout);
        client = made;
      }
      if (made.client() instanceof RedisClusterClient clusterClient) {
        // the first connection learns the topology first (asynchronously, like the connection)
        return clusterClient.refreshPartitionsAsync().toCompletableFuture()
            .thenCompose(topology -> clusterClient.connectAsync(StringCodec.UTF8))
            .thenApply(Connector::clusterLink);
      }
      // a pub/sub connection, so that a rule source can subscribe on it too (where it speaks RESP3)
      return ((RedisClient) made.client()).connectPubSubAsync(StringCodec.UTF8, uris.get(0))
          .toCompletableFuture().thenApply(Connector::singleLink);
    } catch (RuntimeException failure) {
      return CompletableFuture.failedFuture(failure);
    }
  }

  private static Link clusterLink(StatefulRedisClusterConnection<String, String> c) {
    return new Link(c, c.async(), () -> {
      List<RedisServerCommands<String, String>> nodes = new ArrayList<>();
      for (RedisClusterNode node : c.getPartitions()) {
        if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
          nodes.add(c.getConnection(node.getNodeId()).sync());
        }
      }
      return nodes;
    }, null);
  }

  private static Link singleLink(StatefulRedisPubSubConnection<String, String> c) {
    return new Link(c, c.async(), () -> List.of(c.sync()), Subscriptions.on(c));
  }

  private static List<RedisServerCommands<String, String>> primaries(Link link) {
    try {
      return link.primaries().get();
    } catch (RuntimeException unreachable) { // a node's connection could not be made
      return List.of();
    }
  }

  /** Logs a policy that may evict guard's keys, once per connection (on the own thread). */
  private void checkEviction(Link made) {
    eviction.connected();
    try {
      own.execute(() -> {
        if (link == made) { // not closed or lost meanwhile
          eviction.check(primaries(made), () -> link == made && made.connection().isOpen());
        }
      });
    } catch (RejectedExecutionException closing) {
      // closed meanwhile: nothing to tell
    }
  }

  /**
   * Reads now (on the caller's thread, a few commands per primary, each within the request
   * timeout) whether Redis may evict guard's keys, and logs what changed; never throws.
   */
  Eviction eviction() {
    Link up = link;
    if (up == null || !up.connection().isOpen()) {
      return Eviction.unknown("guard is not connected to Redis at " + servers()
          + ", so it cannot tell whether Redis may evict its keys");
    }
    return eviction.check(primaries(up), () -> link == up && up.connection().isOpen());
  }

  private static void closeQuietly(Link broken) {
    try {
      broken.connection().close();
    } catch (RuntimeException ignored) {
      // closing a broken connection may fail; it is gone either way
    }
  }

  /** Closes the connection, waits for an attempt under way and releases the client's threads. */
  void close() {
    Link open;
    synchronized (lock) {
      closed = true;
      open = link;
      link = null;
    }
    if (open != null) {
      closeQuietly(open);
    }
    own.shutdown();
    try {
      own.awaitTermination(10, TimeUnit.SECONDS);
      Thread last = worker; // a terminated pool's thread may still be on its way out
      if (last != null && last != Thread.currentThread()) {
        last.join(TimeUnit.SECONDS.toMillis(10));
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
    Clients.Made made = client;
    if (made != null && borrowed == null) {
      made.shutdown();
    }
  }

  /**
   * A namespace, checked: it goes into the keys' hash tag.
   *
   * @throws IllegalArgumentException if it is blank or holds '{', '}' or ':'
   */
  static String namespace(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isBlank()) {
      throw new IllegalArgumentException("namespace must not be blank, was '" + namespace + "'");
    }
    if (namespace.indexOf('{') >= 0 || namespace.indexOf('}') >= 0
        || namespace.indexOf(':') >= 0) {
      throw new IllegalArgumentException("namespace must not contain '{', '}' or ':' (they "
          + "would break the keys' hash tag), was '" + namespace + "'");
    }
    return namespace.strip();
  }
}
