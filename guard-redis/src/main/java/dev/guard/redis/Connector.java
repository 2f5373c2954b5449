package dev.guard.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.api.sync.RedisSortedSetCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.StringCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The connection of a {@link RedisTokenService} to one server or to a Redis Cluster, and the one
 * Lua script every decision runs ({@code guard.lua}).
 *
 * <p>The connection is made in the background on first use. While that first attempt is still
 * under way a caller waits at most the request timeout and gets {@code null} ("not yet": the
 * service answers FAILED without counting a failure, so a slow start does not look like an
 * outage); an attempt that ends in an error throws, which the service counts as a failure, and the
 * next caller starts a new attempt. Once made, the connection reconnects by itself (Lettuce) and
 * rejects commands while disconnected, so an outage surfaces as failing commands (on a cluster a
 * command waits for its node's connection, at most the request timeout).
 *
 * <p>On Redis Cluster, Lettuce routes a script to the node of its first key's hash slot; every key
 * of one script call shares that slot by its {@code {..}} hash tag.
 */
final class Connector {

  static final String SCRIPT = readScript();
  static final String SHA = sha1(SCRIPT);

  /** The commands the service uses, from a connection to one server or to a cluster. */
  record Link(
      StatefulConnection<String, String> connection,
      RedisScriptingCommands<String, String> scripts,
      RedisSortedSetCommands<String, String> sets) {}

  private final AbstractRedisClient client;
  private final List<RedisURI> uris;
  private final boolean cluster;
  private final long requestTimeoutNanos;
  private final Object lock = new Object();
  private @Nullable CompletableFuture<Link> connecting;
  private volatile @Nullable Link link;

  Connector(List<String> uris, boolean cluster, Duration requestTimeout, Duration connectTimeout) {
    this.uris = new ArrayList<>();
    for (String uri : uris) {
      RedisURI parsed = RedisURI.create(uri);
      parsed.setTimeout(connectTimeout); // bounds the handshake and the topology discovery
      this.uris.add(parsed);
    }
    this.cluster = cluster;
    this.requestTimeoutNanos = requestTimeout.toNanos();
    SocketOptions socket = SocketOptions.builder().connectTimeout(connectTimeout).build();
    if (cluster) {
      RedisClusterClient clusterClient = RedisClusterClient.create(this.uris);
      // a node's connection is made on its first command: accept commands while it is being
      // made (each still fails after the request timeout when the node is down)
      clusterClient.setOptions(ClusterClientOptions.builder()
          .autoReconnect(true)
          .disconnectedBehavior(ClientOptions.DisconnectedBehavior.ACCEPT_COMMANDS)
          .timeoutOptions(TimeoutOptions.enabled(requestTimeout))
          .socketOptions(socket)
          .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
              .enableAllAdaptiveRefreshTriggers()
              .build())
          .build());
      this.client = clusterClient;
    } else {
      RedisClient single = RedisClient.create();
      single.setOptions(ClientOptions.builder()
          .autoReconnect(true)
          .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
          .timeoutOptions(TimeoutOptions.enabled(requestTimeout))
          .socketOptions(socket)
          .build());
      this.client = single;
    }
  }

  boolean cluster() {
    return cluster;
  }

  /** The servers as {@code host:port}, comma-separated (no credentials). */
  String servers() {
    StringBuilder out = new StringBuilder();
    for (RedisURI uri : uris) {
      out.append(out.length() == 0 ? "" : ",").append(uri.getHost()).append(':')
          .append(uri.getPort());
    }
    return out.toString();
  }

  /**
   * The connection; null while the first attempt is still under way after waiting the request
   * timeout for it.
   *
   * @throws IllegalStateException if the attempt failed (a new one starts with the next call)
   */
  @Nullable Link link() {
    Link ready = link;
    if (ready != null) {
      return ready;
    }
    CompletableFuture<Link> pending;
    synchronized (lock) {
      if (link != null) {
        return link;
      }
      if (connecting == null || connecting.isCompletedExceptionally()) {
        connecting = connectAsync();
      }
      pending = connecting;
    }
    try {
      Link made = pending.get(requestTimeoutNanos, TimeUnit.NANOSECONDS);
      synchronized (lock) {
        if (link == null) {
          link = made;
        }
        return link;
      }
    } catch (TimeoutException notYet) {
      return null;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return null;
    } catch (ExecutionException failed) {
      throw new IllegalStateException("cannot connect to " + servers(), failed.getCause());
    }
  }

  private CompletableFuture<Link> connectAsync() {
    if (client instanceof RedisClusterClient clusterClient) {
      // the first connection learns the topology first (asynchronously, like the connection)
      return clusterClient.refreshPartitionsAsync().toCompletableFuture()
          .thenCompose(topology -> clusterClient.connectAsync(StringCodec.UTF8))
          .thenApply(Connector::clusterLink);
    }
    return ((RedisClient) client).connectAsync(StringCodec.UTF8, uris.get(0))
        .toCompletableFuture().thenApply(Connector::singleLink);
  }

  private static Link clusterLink(StatefulRedisClusterConnection<String, String> c) {
    return new Link(c, c.sync(), c.sync());
  }

  private static Link singleLink(StatefulRedisConnection<String, String> c) {
    return new Link(c, c.sync(), c.sync());
  }

  /** Runs the script (loading it again when the server lost it); returns its reply list. */
  static List<Object> run(Link link, String[] keys, String[] args) {
    try {
      return link.scripts().evalsha(SHA, ScriptOutputType.MULTI, keys, args);
    } catch (RedisNoScriptException notLoaded) {
      return link.scripts().eval(SCRIPT, ScriptOutputType.MULTI, keys, args);
    }
  }

  /** Closes the connection and releases the client's threads. */
  void close() {
    Link open;
    CompletableFuture<Link> pending;
    synchronized (lock) {
      open = link;
      link = null;
      pending = connecting;
      connecting = null;
    }
    if (open != null) {
      open.connection().close();
    } else if (pending != null) {
      pending.thenAccept(late -> late.connection().close());
    }
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }

  private static String readScript() {
    try (InputStream in = Objects.requireNonNull(
        Connector.class.getResourceAsStream("guard.lua"), "guard.lua")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read guard.lua", e);
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
}
