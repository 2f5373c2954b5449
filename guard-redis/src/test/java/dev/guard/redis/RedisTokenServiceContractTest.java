package dev.guard.redis;

import dev.guard.testing.RedisServer;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.TokenServiceContract;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** The Redis token service on one real server, held to the contract of every token service. */
@Tag("process")
class RedisTokenServiceContractTest extends TokenServiceContract {

  private static RedisServer redis;

  @BeforeAll
  static void startRedis() throws Exception {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() throws Exception {
    if (redis != null) {
      redis.close();
    }
  }

  @Override
  protected Cluster cluster(ManualClock clock, int maxRequestsPerSecond) {
    String namespace = "contract-" + UUID.randomUUID();
    return () -> TokenRequests.connected(
        configured(RedisTokenService.builder(redis.uri(), namespace)), clock,
        maxRequestsPerSecond);
  }

  /** The service's options beyond the defaults (none here). */
  RedisTokenService.Builder configured(RedisTokenService.Builder builder) {
    return builder;
  }

  @Override
  protected Duration instanceExpiry() {
    return Duration.ofSeconds(5); // the default
  }
}
