package dev.guard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A real Redis Sentinel group on loopback, started and stopped by a test: a master, one replica
 * of it, and one sentinel ({@code redis-server --sentinel}, quorum 1) that watches the master
 * under the name {@value #MASTER}, declares it down after {@value #DOWN_AFTER_MILLIS} ms without
 * an answer and then promotes the replica. Every process binds its own port as {@link
 * RedisServer} does; the sentinel's configuration file is written anew into its own directory at
 * each start. Fails loudly (never skips) when the binaries are missing or the group does not
 * form.
 *
 * <pre>{@code
 * try (RedisSentinelServers group = RedisSentinelServers.start()) {
 *   RedisConnection redis = RedisConnection.of(group.uri());
 *   group.killMaster();   // the sentinel promotes the replica
 * }
 * }</pre>
 */
public final class RedisSentinelServers implements AutoCloseable {

  /** The name the sentinel knows the master by. */
  public static final String MASTER = "guard";

  /** How long the master may not answer before the sentinel calls it down. */
  public static final int DOWN_AFTER_MILLIS = 500;

  private final List<RedisServer> servers = new ArrayList<>();
  private @Nullable RedisServer sentinel;

  private RedisSentinelServers() {}

  /**
   * Starts the master, the replica (and waits until it has synchronised), then the sentinel, and
   * waits until the sentinel knows the replica.
   *
   * @return the running group
   * @throws IOException when a process cannot be started
   * @throws InterruptedException when interrupted while waiting
   * @throws IllegalStateException when a process did not start or the group did not form
   */
  public static RedisSentinelServers start() throws IOException, InterruptedException {
    RedisSentinelServers group = new RedisSentinelServers();
    try {
      RedisServer master = RedisServer.start();
      group.servers.add(master);
      RedisServer replica = RedisServer.start(
          List.of("--replicaof", "127.0.0.1", Integer.toString(master.port())));
      group.servers.add(replica);
      Await.until("the replica on port " + replica.port() + " to synchronise with the master",
          RedisServer.PATIENCE,
          () -> replica.cli("INFO", "replication").contains("master_link_status:up"));
      group.sentinel = RedisServer.start(new SentinelShape(master.port()));
      Await.until("the sentinel to know the replica on port " + replica.port(),
          RedisServer.PATIENCE, () -> group.sentinelCli("SENTINEL", "REPLICAS", MASTER)
              .lines().anyMatch(line -> line.strip().equals(Integer.toString(replica.port()))));
      return group;
    } catch (IOException | InterruptedException | RuntimeException | Error failed) {
      group.close();
      throw failed;
    }
  }

  /**
   * Where a client finds the master.
   *
   * @return {@code redis-sentinel://127.0.0.1:port#guard}
   */
  public String uri() {
    return "redis-sentinel://127.0.0.1:" + sentinel().port() + "#" + MASTER;
  }

  /**
   * The sentinel's port on 127.0.0.1.
   *
   * @return the port
   */
  public int sentinelPort() {
    return sentinel().port();
  }

  /**
   * The port of the server the sentinel names as master now.
   *
   * @return the port
   * @throws IOException when redis-cli cannot be run
   * @throws InterruptedException when interrupted while waiting for it
   */
  public int masterPort() throws IOException, InterruptedException {
    List<String> address = sentinelCli("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER).lines()
        .map(String::strip).toList();
    if (address.size() != 2) {
      throw new IllegalStateException("the sentinel named no master: " + address);
    }
    return Integer.parseInt(address.get(1));
  }

  /**
   * Kills the server the sentinel names as master now (no shutdown save) and waits until it has
   * exited; the sentinel then promotes the replica.
   *
   * @return the port of the killed master
   * @throws IOException when redis-cli cannot be run
   * @throws InterruptedException when interrupted while waiting
   */
  public int killMaster() throws IOException, InterruptedException {
    int port = masterPort();
    for (RedisServer server : servers) {
      if (server.port() == port) {
        server.kill();
        return port;
      }
    }
    throw new IllegalStateException("the sentinel names port " + port + " as master, which is "
        + "none of the group's servers");
  }

  /**
   * Runs {@code redis-cli} against the sentinel and returns its answer.
   *
   * @param args the command and its arguments, e.g. {@code "SENTINEL", "MASTERS"}
   * @return redis-cli's output, trimmed
   * @throws IOException when redis-cli cannot be run
   * @throws InterruptedException when interrupted while waiting for it
   */
  public String sentinelCli(String... args) throws IOException, InterruptedException {
    return sentinel().cli(args);
  }

  /**
   * What the sentinel has logged so far (its view of the failover).
   *
   * @return its output
   */
  public String sentinelLog() {
    RedisServer watching = sentinel;
    return watching == null ? "" : watching.log();
  }

  /** Kills the sentinel and the servers (no shutdown save). */
  @Override
  public void close() throws InterruptedException {
    RedisServer watching = sentinel;
    if (watching != null) {
      watching.close();
    }
    for (RedisServer server : servers) {
      server.close();
    }
  }

  private RedisServer sentinel() {
    RedisServer watching = sentinel;
    if (watching == null) {
      throw new IllegalStateException("the sentinel has not started");
    }
    return watching;
  }

  /** A sentinel: its configuration file, written anew into the directory of each start. */
  private record SentinelShape(int masterPort) implements RedisServer.Shape {
    @Override
    public List<String> command(int port, Path dir) throws IOException {
      Path config = dir.resolve("sentinel.conf");
      Files.writeString(config, String.join("\n",
          "sentinel monitor " + MASTER + " 127.0.0.1 " + masterPort + " 1",
          "sentinel down-after-milliseconds " + MASTER + " " + DOWN_AFTER_MILLIS,
          "sentinel failover-timeout " + MASTER + " 5000",
          "sentinel parallel-syncs " + MASTER + " 1", ""));
      return List.of(RedisServer.executable("redis-server"), config.toString(), "--sentinel",
          "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString());
    }

    @Override
    public String ready() {
      return "+monitor master " + MASTER;
    }
  }
}
