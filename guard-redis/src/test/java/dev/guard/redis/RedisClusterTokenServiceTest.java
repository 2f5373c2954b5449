package dev.guard.redis;

import static dev.guard.redis.TokenRequests.firstAnswer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import dev.guard.testing.RedisClusterServers;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Redis token service against a real three-node Redis Cluster started for this class: flow
 * ids whose keys live on different nodes are decided exactly, each on its own node.
 */
@Tag("process")
class RedisClusterTokenServiceTest {

  private static RedisClusterServers cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = RedisClusterServers.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** One flow id per node: its keys' hash slot is owned by node 0, 1 and 2. */
  private static List<String> flowIdsOnEachNode(String namespace) {
    String[] found = new String[3];
    for (int i = 0; found[0] == null || found[1] == null || found[2] == null; i++) {
      String flowId = "orders-" + i;
      int node = RedisClusterServers.nodeOfSlot(
          SlotHash.getSlot("guard:{" + namespace + ":" + flowId + "}:w"));
      if (found[node] == null) {
        found[node] = flowId;
      }
    }
    return List.of(found);
  }

  private static FlowRule rule(String flowId, ClusterMode mode) {
    return FlowRule.qps("orders", 1).withCluster(mode.withWindow(10, Duration.ofSeconds(10)));
  }

  private static RedisTokenService service(String namespace, String instance) {
    return RedisTokenService.builder(cluster.seed(), namespace)
        .cluster()
        .instanceId(instance)
        .requestTimeout(Duration.ofSeconds(1)) // the machine is shared: count decisions only
        .build();
  }

  @Test
  void globalRules_onThreeNodes_admitExactlyEachWindowsCapacity() throws Exception {
    List<String> flowIds = flowIdsOnEachNode("shop");
    try (RedisTokenService a = service("shop", "a"); RedisTokenService b = service("shop", "b")) {
      assertThat(b.awaitConnected(Duration.ofSeconds(30))).as("b connected").isTrue();
      for (String flowId : flowIds) {
        FlowRule rule = rule(flowId, ClusterMode.global(flowId)); // 10 per window
        assertThat(firstAnswer(a, rule)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(9));
        List<TokenService.Result.Status> answers = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          answers.add((i % 2 == 0 ? b : a).requestToken(rule, 1, false).status());
        }
        assertThat(answers).as(flowId).containsExactly(
            TokenService.Result.Status.OK, TokenService.Result.Status.OK, TokenService.Result.Status.OK,
            TokenService.Result.Status.OK, TokenService.Result.Status.OK, TokenService.Result.Status.OK,
            TokenService.Result.Status.OK, TokenService.Result.Status.OK, TokenService.Result.Status.OK,
            TokenService.Result.Status.REFUSED);
      }
    }
    for (int node = 0; node < 3; node++) {
      String key = "guard:{shop:" + flowIds.get(node) + "}:w";
      assertThat(cluster.cli(cluster.port(node), "EXISTS", key)).as(key + " on node " + node)
          .isEqualTo("1");
    }
  }

  @Test
  void perInstanceRule_andConcurrencyTokens_workOnTheNodeOfTheirFlowId() throws Exception {
    List<String> flowIds = flowIdsOnEachNode("billing");
    String held = "guard:{billing:" + flowIds.get(2) + "}:c";
    try (RedisTokenService a = service("billing", "a");
        RedisTokenService b = service("billing", "b")) {
      FlowRule perInstance = rule(flowIds.get(1), ClusterMode.perInstance(flowIds.get(1)));
      assertThat(firstAnswer(a, perInstance)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(9)); // a alone: 10
      assertThat(firstAnswer(b, perInstance)).usingRecursiveComparison().ignoringFields("tokenId")
        .isEqualTo(TokenService.Result.ok(18)); // a and b: 20

      FlowRule twoAtOnce =
          FlowRule.qps("orders", 2).withCluster(ClusterMode.global(flowIds.get(2)));
      TokenService.Result first = a.acquireConcurrency(twoAtOnce, 1);
      assertThat(first.status()).isEqualTo(TokenService.Result.Status.OK);
      assertThat(b.acquireConcurrency(twoAtOnce, 1).status()).isEqualTo(TokenService.Result.Status.OK);
      assertThat(b.acquireConcurrency(twoAtOnce, 1)).isEqualTo(TokenService.Result.REFUSED);
      assertThat(a.releaseConcurrency(first.tokenId())).isTrue();
      assertThat(b.acquireConcurrency(twoAtOnce, 1).status()).isEqualTo(TokenService.Result.Status.OK);
      assertThat(cluster.cli(cluster.port(2), "ZCARD", held)).isEqualTo("2");
    }
    assertThat(cluster.cli(cluster.port(2), "ZCARD", held)).as("given back on close")
        .isEqualTo("0");
  }

  @Test
  void namespaceRequestLimit_onCluster_answersTooManyRequests() throws Exception {
    List<String> flowIds = flowIdsOnEachNode("limited");
    try (RedisTokenService a = RedisTokenService.builder(cluster.seed(), "limited")
        .cluster()
        .requestTimeout(Duration.ofSeconds(1))
        .maxRequestsPerSecond(3)
        .build()) {
      FlowRule rule = rule(flowIds.get(0), ClusterMode.global(flowIds.get(0)));
      assertThat(firstAnswer(a, rule).status()).isEqualTo(TokenService.Result.Status.OK);
      FlowRule other = rule(flowIds.get(2), ClusterMode.global(flowIds.get(2)));
      assertThat(a.requestToken(other, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
      assertThat(a.requestToken(rule, 1, false).status()).isEqualTo(TokenService.Result.Status.OK);
      assertThat(a.requestToken(other, 1, false)).isEqualTo(TokenService.Result.TOO_MANY_REQUESTS);
    }
  }
}
