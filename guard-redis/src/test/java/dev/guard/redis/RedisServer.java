package dev.guard.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} process on a free loopback port, started and stopped by a test. Fails
 * loudly (never skips) when {@code redis-server} is not installed.
 */
final class RedisServer implements AutoCloseable {

  private final int port;
  private final Path dir;
  private final List<String> config;
  private Process process;

  private RedisServer(int port, Path dir, List<String> config) {
    this.port = port;
    this.dir = dir;
    this.config = config;
  }

  /** Starts a server on a free port. */
  static RedisServer start() throws IOException, InterruptedException {
    return start(List.of());
  }

  /**
   * Starts a server on a free port with more configuration, as command-line arguments (e.g.
   * {@code --maxmemory 4mb}).
   */
  static RedisServer start(List<String> config) throws IOException, InterruptedException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    RedisServer server = new RedisServer(port, Files.createTempDirectory("guard-redis"),
        List.copyOf(config));
    server.restart();
    return server;
  }

  String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** Starts (again) the server on its port, with no persistence: a restart loses every key. */
  void restart() throws IOException, InterruptedException {
    String binary = executable();
    List<String> command = new java.util.ArrayList<>(List.of(binary, "--port",
        Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
        "--dir", dir.toString()));
    command.addAll(config);
    process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("redis.log").toFile())
        .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!answersPing()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException("redis-server did not start on port " + port + ": "
            + Files.readString(dir.resolve("redis.log")));
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  /** Kills the server at once (no shutdown save). */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** Stops the server with SIGSTOP: its sockets stay open and nothing answers. */
  void pause() throws IOException, InterruptedException {
    signal("-STOP");
  }

  /** Lets a paused server run again (SIGCONT): it answers what it received meanwhile. */
  void resume() throws IOException, InterruptedException {
    signal("-CONT");
  }

  private void signal(String which) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", which, Long.toString(process.pid())).start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill " + which + " " + process.pid() + " failed");
    }
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }

  private boolean answersPing() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      socket.setSoTimeout(500);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = new byte[7];
      int read = in.read(reply);
      return read > 0 && new String(reply, 0, read, StandardCharsets.US_ASCII).startsWith("+PONG");
    } catch (IOException notYet) {
      return false;
    }
  }

  private static String executable() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File candidate = new File(dir, "redis-server");
      if (candidate.canExecute()) {
        return candidate.getPath();
      }
    }
    for (String fixed : List.of("/usr/bin/redis-server", "/usr/local/bin/redis-server")) {
      if (new File(fixed).canExecute()) {
        return fixed;
      }
    }
    throw new IllegalStateException("redis-server is not installed: the guard-redis tests run "
        + "against a real server (install it with 'apt-get install -y redis-server'; .ci/run "
        + "does this)");
  }
}
