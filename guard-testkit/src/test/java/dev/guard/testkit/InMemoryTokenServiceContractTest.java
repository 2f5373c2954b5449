package dev.guard.testkit;

import dev.guard.testkit.InMemoryTokenService;

/** The reference token service, held to the contract every token service keeps. */
class InMemoryTokenServiceContractTest extends TokenServiceContract {

  @Override
  protected Cluster cluster(ManualClock clock, int maxRequestsPerSecond) {
    InMemoryTokenService service = maxRequestsPerSecond == 0
        ? new InMemoryTokenService(clock)
        : new InMemoryTokenService(clock, maxRequestsPerSecond);
    return () -> service.connect("contract");
  }
}
