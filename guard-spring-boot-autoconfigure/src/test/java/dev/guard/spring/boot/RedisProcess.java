package dev.guard.spring.boot;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A redis-server of the tests' own, on a free loopback port, answering once started. */
final class RedisProcess implements AutoCloseable {

  private final Process process;
  private final String uri;

  private RedisProcess(Process process, String uri) {
    this.process = process;
    this.uri = uri;
  }

  /** Starts a server and waits, at most 10 s, until it answers. */
  static RedisProcess start() throws IOException, InterruptedException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Path dir = Files.createTempDirectory("guard-spring-redis");
    Process process = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port),
            "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
    RedisProcess redis = new RedisProcess(process, "redis://127.0.0.1:" + port);
    RedisClient client = RedisClient.create(redis.uri);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (true) {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
          connection.sync().ping();
          return redis;
        } catch (RuntimeException notYet) {
          if (System.nanoTime() > deadline || !process.isAlive()) {
            redis.close();
            throw new IOException("redis-server did not start: "
                + Files.readString(dir.resolve("redis.log")), notYet);
          }
          TimeUnit.MILLISECONDS.sleep(20);
        }
      }
    } finally {
      client.shutdown();
    }
  }

  /** Where it listens: {@code redis://127.0.0.1:port}. */
  String uri() {
    return uri;
  }

  /** Sets a key, as an operator would. */
  void set(String key, String value) {
    RedisClient client = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      connection.sync().set(key, value);
    } finally {
      client.shutdown();
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
