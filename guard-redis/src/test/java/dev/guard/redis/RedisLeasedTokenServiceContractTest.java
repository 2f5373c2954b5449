package dev.guard.redis;

import org.junit.jupiter.api.Tag;

/** The Redis token service in leased mode (batch 4) on one real server, held to the contract. */
@Tag("process")
class RedisLeasedTokenServiceContractTest extends RedisTokenServiceContractTest {

  @Override
  RedisTokenService.Builder configured(RedisTokenService.Builder builder) {
    return builder.lease(4);
  }

  /** Leases take permits ahead of the calls that spend them. */
  @Override
  protected boolean exact() {
    return false;
  }
}
