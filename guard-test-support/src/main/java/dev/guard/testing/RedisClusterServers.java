package dev.guard.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A real Redis Cluster of three masters (no replicas) on loopback, started and stopped by a test:
 * three {@link RedisServer}s with {@code --cluster-enabled yes} (each on a port and cluster bus
 * port it bound itself) joined by {@code redis-cli --cluster create}. The slots are split as
 * redis-cli splits them: 0-5460, 5461-10922, 10923-16383. Fails loudly (never skips) when the
 * binaries are missing or the cluster does not come up.
 *
 * <pre>{@code
 * try (RedisClusterServers cluster = RedisClusterServers.start()) {
 *   RedisTokenService service = RedisTokenService.builder(cluster.seed(), "shop").build();
 * }
 * }</pre>
 */
public final class RedisClusterServers implements AutoCloseable {

  /** The cluster's nodes. */
  private static final int NODES = 3;

  private static final List<String> CLUSTER_NODE = List.of("--cluster-enabled", "yes",
      "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000");

  private final List<RedisServer> nodes = new ArrayList<>();

  private RedisClusterServers() {}

  /**
   * Starts three nodes, joins them and waits until every node says {@code cluster_state:ok}.
   *
   * @return the running cluster
   * @throws IOException when a process cannot be started
   * @throws InterruptedException when interrupted while waiting
   * @throws IllegalStateException when a node did not start or the cluster did not form
   */
  public static RedisClusterServers start() throws IOException, InterruptedException {
    RedisClusterServers cluster = new RedisClusterServers();
    try {
      for (int i = 0; i < NODES; i++) {
        cluster.nodes.add(RedisServer.start(CLUSTER_NODE));
      }
      cluster.join();
      for (RedisServer node : cluster.nodes) {
        Await.until("the node on port " + node.port() + " to report cluster_state:ok",
            RedisServer.PATIENCE, () -> node.cli("CLUSTER", "INFO").contains("cluster_state:ok"));
      }
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException | Error failed) {
      cluster.close();
      throw failed;
    }
  }

  /**
   * The seed uri: the first node's.
   *
   * @return {@code redis://127.0.0.1:port}
   */
  public String seed() {
    return nodes.get(0).uri();
  }

  /**
   * The port of one node.
   *
   * @param index 0, 1 or 2, in slot order
   * @return its port
   */
  public int port(int index) {
    return nodes.get(index).port();
  }

  /**
   * The node that owns a hash slot.
   *
   * @param slot the slot, 0-16383
   * @return 0, 1 or 2
   */
  public static int nodeOfSlot(int slot) {
    return slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2;
  }

  /**
   * Runs {@code redis-cli -p port args...} and returns its output.
   *
   * @param port a node's port
   * @param args the command and its arguments
   * @return redis-cli's output, trimmed
   * @throws IOException when redis-cli cannot be run
   * @throws InterruptedException when interrupted while waiting for it
   */
  public String cli(int port, String... args) throws IOException, InterruptedException {
    return RedisServer.cli(port, args);
  }

  private void join() throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of(RedisServer.executable("redis-cli"), "--cluster", "create"));
    for (RedisServer node : nodes) {
      command.add("127.0.0.1:" + node.port());
    }
    command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
    RedisServer.run(command);
  }

  /** Kills every node (no shutdown save). */
  @Override
  public void close() throws InterruptedException {
    for (RedisServer node : nodes) {
      node.close();
    }
  }

}
