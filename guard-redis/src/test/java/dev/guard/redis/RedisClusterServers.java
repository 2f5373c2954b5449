package dev.guard.redis;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Cluster of three masters (no replicas) on free loopback ports, started and stopped
 * by a test: three {@code redis-server --cluster-enabled yes} processes joined by {@code redis-cli
 * --cluster create}. The slots are split as redis-cli splits them: 0-5460, 5461-10922,
 * 10923-16383. Fails loudly (never skips) when the binaries are missing or the cluster does not
 * come up.
 */
final class RedisClusterServers implements AutoCloseable {

  private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final Path dir;
  private final List<Integer> ports = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();

  private RedisClusterServers(Path dir) {
    this.dir = dir;
  }

  /** Starts three nodes, joins them and waits until every node says {@code cluster_state:ok}. */
  static RedisClusterServers start() throws IOException, InterruptedException {
    RedisClusterServers cluster =
        new RedisClusterServers(Files.createTempDirectory("guard-redis-cluster"));
    try {
      cluster.startNodes();
      cluster.join();
      cluster.awaitOk();
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException failed) {
      cluster.close();
      throw failed;
    }
  }

  /** The seed uri of the first node. */
  String seed() {
    return "redis://127.0.0.1:" + ports.get(0);
  }

  /** The port of node {@code index} (0, 1, 2 in slot order). */
  int port(int index) {
    return ports.get(index);
  }

  /** The node (0, 1, 2) that owns a hash slot. */
  static int nodeOfSlot(int slot) {
    return slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2;
  }

  /** Runs {@code redis-cli -p port args...} and returns its output, trimmed. */
  String cli(int port, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(binary("redis-cli"), "-h", "127.0.0.1",
        "-p", Integer.toString(port)));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("redis-cli " + command + " did not finish");
    }
    return out.strip();
  }

  private void startNodes() throws IOException, InterruptedException {
    String server = binary("redis-server");
    for (int i = 0; i < 3; i++) {
      int port = freePortWithFreeBus();
      Path nodeDir = Files.createDirectories(dir.resolve("node" + i));
      Process process = new ProcessBuilder(List.of(server, "--port", Integer.toString(port),
              "--bind", "127.0.0.1", "--cluster-enabled", "yes",
              "--cluster-config-file", nodeDir.resolve("nodes.conf").toString(),
              "--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no",
              "--dir", nodeDir.toString()))
          .redirectErrorStream(true)
          .redirectOutput(nodeDir.resolve("redis.log").toFile())
          .start();
      ports.add(port);
      processes.add(process);
    }
    long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
    for (int i = 0; i < 3; i++) {
      while (!cli(ports.get(i), "PING").equals("PONG")) {
        if (!processes.get(i).isAlive() || System.nanoTime() - deadline > 0) {
          throw new IllegalStateException("redis-server (cluster node " + i + ") did not start on "
              + "port " + ports.get(i) + ": " + log(i));
        }
        TimeUnit.MILLISECONDS.sleep(20);
      }
    }
  }

  private void join() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(binary("redis-cli"), "--cluster", "create"));
    for (int port : ports) {
      command.add("127.0.0.1:" + port);
    }
    command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IllegalStateException("redis-cli --cluster create failed: " + out);
    }
  }

  private void awaitOk() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
    for (int port : ports) {
      String info = cli(port, "CLUSTER", "INFO");
      while (!info.contains("cluster_state:ok")) {
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException("Redis Cluster not ok on port " + port + ": " + info);
        }
        TimeUnit.MILLISECONDS.sleep(50);
        info = cli(port, "CLUSTER", "INFO");
      }
    }
  }

  private String log(int node) throws IOException {
    Path log = dir.resolve("node" + node).resolve("redis.log");
    return Files.exists(log) ? Files.readString(log) : "(no log)";
  }

  /** A free port whose cluster bus port (port + 10000) is free too. */
  private static int freePortWithFreeBus() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = probe.getLocalPort();
        if (port + 10_000 > 65_535) {
          continue;
        }
        try (ServerSocket bus =
            new ServerSocket(port + 10_000, 1, InetAddress.getLoopbackAddress())) {
          return port;
        } catch (IOException busTaken) {
          // try another
        }
      }
    }
    throw new IllegalStateException("no free port pair (port, port + 10000) on loopback");
  }

  private static String binary(String name) {
    List<String> dirs = new ArrayList<>(
        List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
    dirs.addAll(List.of("/usr/bin", "/usr/local/bin"));
    for (String d : dirs) {
      File candidate = new File(d, name);
      if (candidate.canExecute()) {
        return candidate.getPath();
      }
    }
    throw new IllegalStateException(name + " is not installed: the guard-redis tests run against "
        + "a real Redis Cluster (install it with 'apt-get install -y redis-server'; .ci/run "
        + "does this)");
  }

  /** Kills every node (no shutdown save). */
  @Override
  public void close() throws InterruptedException {
    for (Process process : processes) {
      process.destroyForcibly();
    }
    for (Process process : processes) {
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
