package dev.guard.benchmarks;

import dev.guard.redis.RedisTokenService;
import dev.guard.testing.Await;
import dev.guard.testing.RedisServer;
import java.io.IOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A {@code redis-server} that a Redis benchmark starts on loopback (no persistence) and kills at
 * the end, and the token service connected to it. The server is guard-test-support's {@link
 * RedisServer}: it binds its port itself, trying another one when the port is taken, so no port
 * is probed and released before the server binds it.
 */
final class LocalRedis {

  /** The longest wait for the first request Redis decides. */
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private final RedisServer server;

  private LocalRedis(RedisServer server) {
    this.server = server;
  }

  /** Starts a server on a port it binds itself; returns once it accepts connections. */
  static LocalRedis start() throws IOException, InterruptedException {
    return new LocalRedis(RedisServer.start());
  }

  /** A service on this server, plain or leased ({@code lease(64)}), with a 1 s request timeout. */
  RedisTokenService service(String mode) {
    RedisTokenService.Builder builder = RedisTokenService.builder(server.uri(), "bench")
        .requestTimeout(Duration.ofSeconds(1));
    return (mode.equals("leased") ? builder.lease(64) : builder).build();
  }

  /** Waits (at most 20 s) until {@code decided} says that Redis decided a request. */
  void awaitDecisions(BooleanSupplier decided) {
    try {
      Await.until("redis-server at " + server.uri() + " to decide a request", PATIENCE,
          decided::getAsBoolean);
    } catch (AssertionError undecided) {
      throw new IllegalStateException(undecided.getMessage() + "; its log: " + server.log(),
          undecided);
    }
  }

  /** Checks that the service stayed connected, closes it and kills the server. */
  void stop(RedisTokenService service) throws InterruptedException {
    if (!service.available()) {
      throw new IllegalStateException("Redis was unavailable during the run: calls were not "
          + "decided by Redis");
    }
    service.close();
    server.close();
  }
}
