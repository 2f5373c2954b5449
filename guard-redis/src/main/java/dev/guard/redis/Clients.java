package dev.guard.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Makes the Lettuce client of a {@link Connector}, on the connector's own thread (creating the
 * first client of a JVM sets up Netty, which takes hundreds of milliseconds).
 *
 * <p>One server: Lettuce's automatic reconnection is off, so the connector alone decides when to
 * connect again (docs/BEHAVIOUR.md, "On Redis"). Redis Cluster: the client keeps a connection per
 * node and reconnects a node by itself; its reconnect delay grows from 1 ms and is capped at the
 * service's retry interval, so a node that answers again is used again within that interval
 * whatever the length of its outage.
 */
final class Clients {

  private Clients() {}

  /** The client and, when it does not own them, the resources it runs on. */
  record Made(AbstractRedisClient client, @Nullable ClientResources resources) {
    /** Shuts the client down, then its resources, waiting for their threads to end. */
    void shutdown() {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      ClientResources shared = resources;
      if (shared != null) {
        Future<?> done = shared.shutdown(0, 2, TimeUnit.SECONDS);
        try {
          done.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException ignored) {
          // the threads end on their own
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * A client for one server (or a Sentinel group's master).
   *
   * @param ssl how to trust a TLS server ({@code rediss://}); null for the JVM's trust store
   */
  static Made single(@Nullable SslOptions ssl, @Nullable Duration requestTimeout,
      Duration connectTimeout) {
    RedisClient client = RedisClient.create();
    client.setOptions(ClientOptions.builder()
        .sslOptions(tls(ssl, connectTimeout))
        .autoReconnect(false)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(timeouts(requestTimeout))
        .socketOptions(socket(connectTimeout))
        .build());
    return new Made(client, null);
  }

  static Made cluster(List<RedisURI> seeds, @Nullable SslOptions ssl,
      @Nullable Duration requestTimeout, Duration connectTimeout, Duration retry) {
    Duration cap = retry.isZero() ? Duration.ofMillis(1) : retry;
    ClientResources resources = ClientResources.builder()
        .reconnectDelay(Delay.exponential(Duration.ofMillis(1), cap, 2, TimeUnit.MILLISECONDS))
        .build();
    RedisClusterClient client = RedisClusterClient.create(resources, seeds);
    // a node's connection is made on its first command: accept commands while it is being made
    // (each still fails after the request timeout when the node is down)
    client.setOptions(ClusterClientOptions.builder()
        .sslOptions(tls(ssl, connectTimeout))
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.ACCEPT_COMMANDS)
        .timeoutOptions(timeouts(requestTimeout))
        .socketOptions(socket(connectTimeout))
        .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
            .enableAllAdaptiveRefreshTriggers()
            .build())
        .build());
    return new Made(client, resources);
  }

  /**
   * The TLS settings (used for {@code rediss://} only): the given ones or the JVM's defaults, the
   * handshake bounded by the connect timeout, since it is part of making the connection.
   */
  private static SslOptions tls(@Nullable SslOptions ssl, Duration connectTimeout) {
    return (ssl == null ? SslOptions.builder() : ssl.mutate()).handshakeTimeout(connectTimeout)
        .build();
  }

  /** Each command's bound on the client, or none (the callers wait their own). */
  private static TimeoutOptions timeouts(@Nullable Duration requestTimeout) {
    return requestTimeout == null
        ? TimeoutOptions.builder().timeoutCommands(false).build()
        : TimeoutOptions.enabled(requestTimeout);
  }

  private static SocketOptions socket(Duration connectTimeout) {
    return SocketOptions.builder().connectTimeout(connectTimeout).build();
  }
}
