package dev.guard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The launcher binds its own port and moves on when a port is taken, never probing first. */
@Tag("process")
class RedisServerTest {

  /** A port of the system's choosing, held (listening) by this test. */
  private static ServerSocket held() throws Exception {
    return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
  }

  /** {@code first}, then random ports of the launcher's range. */
  private static IntSupplier firstThenRandom(int first) {
    int[] calls = {0};
    return () -> calls[0]++ == 0 ? first : ThreadLocalRandom.current().nextInt(10_000, 22_768);
  }

  @Test
  void start_portTaken_startsOnAnotherPort() throws Exception {
    try (ServerSocket taken = held();
        RedisServer redis = RedisServer.start(List.of(), firstThenRandom(taken.getLocalPort()))) {
      assertThat(redis.port()).isNotEqualTo(taken.getLocalPort());
      assertThat(redis.cli("PING")).isEqualTo("PONG");
      assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
    }
  }

  @Test
  void start_clusterBusPortTaken_startsOnAnotherPort() throws Exception {
    try (ServerSocket bus = held()) {
      int port = bus.getLocalPort() - 10_000; // its cluster bus port is the one held
      try (RedisServer node = RedisServer.start(
          List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"),
          firstThenRandom(port))) {
        assertThat(node.port()).isNotEqualTo(port);
        assertThat(node.cli("CLUSTER", "INFO")).contains("cluster_known_nodes:1");
      }
    }
  }

  @Test
  void start_everyPortTaken_failsNamingThem() throws Exception {
    try (ServerSocket taken = held()) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> RedisServer.start(List.of(), () -> port))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("every port it tried in use")
          .hasMessageContaining(Integer.toString(port));
    }
  }

  @Test
  void start_badConfiguration_failsWithTheServersLog() {
    assertThatThrownBy(() -> RedisServer.start(List.of("--no-such-directive", "yes")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("redis-server did not start on port")
        .hasMessageContaining("no-such-directive");
  }

  @Test
  void restart_afterKill_answersOnTheSamePortWithNothingKept() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      assertThat(redis.cli("SET", "k", "v")).isEqualTo("OK");
      redis.kill();
      redis.restart();
      assertThat(redis.cli("PING")).isEqualTo("PONG");
      assertThat(redis.cli("EXISTS", "k")).isEqualTo("0");
    }
  }

  @Test
  void restart_whileRunning_isRefused() throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      assertThatThrownBy(redis::restart).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("still running");
    }
  }

  @Test
  void cluster_startsThreeNodesThatShareTheSlots() throws Exception {
    try (RedisClusterServers cluster = RedisClusterServers.start()) {
      for (int node = 0; node < 3; node++) {
        assertThat(cluster.cli(cluster.port(node), "CLUSTER", "INFO"))
            .contains("cluster_state:ok", "cluster_known_nodes:3");
      }
      assertThat(cluster.seed()).isEqualTo("redis://127.0.0.1:" + cluster.port(0));
    }
  }
}
