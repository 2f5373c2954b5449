package dev.guard.benchmarks;

import dev.guard.redis.RedisTokenService;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A {@code redis-server} that a Redis benchmark starts on a free loopback port (no persistence)
 * and kills at the end, and the token service connected to it.
 */
final class LocalRedis {

  private final Process server;
  private final Path dir;
  private final int port;

  private LocalRedis(Process server, Path dir, int port) {
    this.server = server;
    this.dir = dir;
    this.port = port;
  }

  /** Starts a server on a free port. */
  static LocalRedis start() throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Path dir = Files.createTempDirectory("guard-bench-redis");
    Process server = new ProcessBuilder(List.of(redisServer(), "--port", Integer.toString(port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()))
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("redis.log").toFile())
        .start();
    return new LocalRedis(server, dir, port);
  }

  /** A service on this server, plain or leased ({@code lease(64)}), with a 1 s request timeout. */
  RedisTokenService service(String mode) {
    RedisTokenService.Builder builder =
        RedisTokenService.builder("redis://127.0.0.1:" + port, "bench")
            .requestTimeout(Duration.ofSeconds(1));
    return (mode.equals("leased") ? builder.lease(64) : builder).build();
  }

  /** Waits (at most 20 s) until {@code decided} says that Redis decided a request. */
  void awaitDecisions(BooleanSupplier decided) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!decided.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0 || !server.isAlive()) {
        throw new IllegalStateException("redis-server did not answer on port " + port + ": "
            + Files.readString(dir.resolve("redis.log")));
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  /** Checks that the service stayed connected, closes it and kills the server. */
  void stop(RedisTokenService service) throws InterruptedException {
    if (!service.available()) {
      throw new IllegalStateException("Redis was unavailable during the run: calls were not "
          + "decided by Redis");
    }
    service.close();
    server.destroyForcibly();
    server.waitFor(10, TimeUnit.SECONDS);
  }

  private static String redisServer() {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File candidate = new File(d, "redis-server");
      if (candidate.canExecute()) {
        return candidate.getPath();
      }
    }
    throw new IllegalStateException("redis-server is not installed");
  }
}
