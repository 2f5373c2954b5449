package dev.guard.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} of the fleet tests' own, without persistence, on a free loopback port;
 * fails (never skips) when the binary is missing, as .ci/run installs it.
 */
final class LocalRedis implements AutoCloseable {

  private final Process process;
  private final int port;

  private LocalRedis(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static LocalRedis start() throws IOException, InterruptedException {
    Path binary = List.of(Path.of("/usr/bin/redis-server"), Path.of("/usr/local/bin/redis-server"))
        .stream().filter(Files::isExecutable).findFirst()
        .orElseThrow(() -> new IllegalStateException("the fleet tests need redis-server"
            + " (apt-get install -y redis-server; .ci/run does)"));
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Path dir = Files.createTempDirectory("guard-dashboard-redis");
    Process process = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port),
        "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("log").toFile()).start();
    LocalRedis redis = new LocalRedis(process, port);
    for (int attempt = 0; !redis.pong(); attempt++) {
      if (!process.isAlive() || attempt > 500) {
        process.destroyForcibly();
        throw new IllegalStateException("redis-server did not start: "
            + Files.readString(dir.resolve("log")));
      }
      process.waitFor(20, TimeUnit.MILLISECONDS); // returns early only if the server died
    }
    return redis;
  }

  String uri() {
    return "redis://127.0.0.1:" + port;
  }

  private boolean pong() {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      byte[] reply = new byte[5];
      return in.read(reply) == 5 && new String(reply, StandardCharsets.US_ASCII).equals("+PONG");
    } catch (IOException notYet) {
      return false;
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
