package dev.guard.redis;

import dev.guard.testing.RedisClusterServers;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.TokenServiceContract;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** The Redis token service on a real three-node Redis Cluster, held to the contract. */
@Tag("process")
class RedisClusterTokenServiceContractTest extends TokenServiceContract {

  private static RedisClusterServers redis;

  @BeforeAll
  static void startCluster() throws Exception {
    redis = RedisClusterServers.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (redis != null) {
      redis.close();
    }
  }

  @Override
  protected Cluster cluster(ManualClock clock, int maxRequestsPerSecond) {
    String namespace = "contract-" + UUID.randomUUID();
    return () -> TokenRequests.connected(
        RedisTokenService.builder(redis.seed(), namespace).cluster(), clock, maxRequestsPerSecond);
  }

  @Override
  protected Duration instanceExpiry() {
    return Duration.ofSeconds(5); // the default
  }
}
