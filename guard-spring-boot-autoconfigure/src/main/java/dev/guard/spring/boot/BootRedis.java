package dev.guard.spring.boot;

import java.util.concurrent.ThreadFactory;
import dev.guard.redis.RedisConnection;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/**
 * guard's {@link RedisConnection} to the Redis the application configured for Spring Boot
 * ({@code spring.data.redis.*}, or the {@link DataRedisConnectionDetails} that Testcontainers or
 * Docker Compose provide): the same server, Sentinel group or cluster, the same credentials,
 * database and TLS (an SSL bundle's trust and key material), through a Lettuce client of guard's
 * own. guard does not share Boot's client: Boot's reconnects by itself and waits up to its command
 * timeout, where guard connects again on its own schedule and never waits (docs/BEHAVIOUR.md, "On
 * Redis"). Loaded only when spring-boot-data-redis is on the class path.
 */
final class BootRedis {

  private BootRedis() {}

  /**
   * The connection, connecting in the background.
   *
   * @param details Boot's connection details
   * @param url {@code spring.data.redis.url}, whose {@code rediss://} turns TLS on as in Boot
   * @param threads the platform's threads for the connection's own thread, or null for guard's
   * @return the connection
   * @throws InvalidGuardSettingsException for a static master/replica setup, which names no
   *     master guard could write to
   */
  static RedisConnection connection(DataRedisConnectionDetails details, @Nullable String url,
      @Nullable ThreadFactory threads) {
    SslBundle bundle = details.getSslBundle();
    boolean tls = bundle != null || url != null && url.strip().startsWith("rediss:");
    RedisConnection.Builder builder;
    DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
    DataRedisConnectionDetails.Cluster cluster = details.getCluster();
    if (sentinel != null) {
      RedisURI.Builder master = RedisURI.builder().withSentinelMasterId(sentinel.getMaster())
          .withDatabase(sentinel.getDatabase()).withSsl(tls);
      authenticate(master, details.getUsername(), details.getPassword());
      for (DataRedisConnectionDetails.Node node : sentinel.getNodes()) {
        master.withSentinel(node(node, sentinel.getUsername(), sentinel.getPassword(), tls));
      }
      builder = RedisConnection.builder(List.of(master.build()));
    } else if (cluster != null) {
      List<RedisURI> seeds = new ArrayList<>();
      for (DataRedisConnectionDetails.Node node : cluster.getNodes()) {
        seeds.add(node(node, details.getUsername(), details.getPassword(), tls));
      }
      builder = RedisConnection.builder(seeds).cluster();
    } else if (details.getMasterReplica() != null) {
      throw InvalidGuardSettingsException.of("spring.data.redis.masterreplica",
          "guard needs the one master of its Redis, which a static master/replica setup does not "
          + "name; set guard.redis.uri to the master (or a Sentinel group)");
    } else {
      DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
      if (standalone == null) {
        throw InvalidGuardSettingsException.of("spring.data.redis",
            "Spring Boot's Redis connection details name no server, Sentinel group or cluster; "
            + "set guard.redis.uri");
      }
      RedisURI.Builder server = RedisURI.Builder.redis(standalone.getHost(), standalone.getPort())
          .withDatabase(standalone.getDatabase()).withSsl(tls);
      authenticate(server, details.getUsername(), details.getPassword());
      builder = RedisConnection.builder(List.of(server.build()));
    }
    if (bundle != null) {
      builder.ssl(sslOptions(bundle));
    }
    if (threads != null) {
      builder.threads(threads);
    }
    return builder.build();
  }

  private static RedisURI node(DataRedisConnectionDetails.Node node, @Nullable String username,
      @Nullable String password, boolean tls) {
    RedisURI.Builder uri = RedisURI.Builder.redis(node.host(), node.port()).withSsl(tls);
    authenticate(uri, username, password);
    return uri.build();
  }

  private static void authenticate(RedisURI.Builder uri, @Nullable String username,
      @Nullable String password) {
    if (password == null || password.isEmpty()) {
      return;
    }
    if (username == null || username.isEmpty()) {
      uri.withPassword(password.toCharArray());
    } else {
      uri.withAuthentication(username, password.toCharArray());
    }
  }

  /** The bundle's trust and key material, ciphers and protocols, as Boot's own client uses them. */
  private static SslOptions sslOptions(SslBundle bundle) {
    SslOptions.Builder ssl = SslOptions.builder()
        .keyManager(bundle.getManagers().getKeyManagerFactory())
        .trustManager(bundle.getManagers().getTrustManagerFactory());
    String[] ciphers = bundle.getOptions().getCiphers();
    if (ciphers != null) {
      ssl.cipherSuites(ciphers);
    }
    String[] protocols = bundle.getOptions().getEnabledProtocols();
    if (protocols != null) {
      ssl.protocols(protocols);
    }
    return ssl.build();
  }
}
