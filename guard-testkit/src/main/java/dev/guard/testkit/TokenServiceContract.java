package dev.guard.testkit;

import dev.guard.spi.TokenService;

/**
 * The decisions every {@link TokenService} makes, written once as a JUnit 5 suite that any
 * backend runs (docs/BEHAVIOUR.md, "Cluster flow control", "One contract for every token
 * service"): counts per window and per bucket, prioritized waits, per-instance thresholds and the
 * instances that stop counting, concurrency tokens and their expiry, the namespace request limit,
 * giving grants back, instances whose rule versions differ, closing, and the buckets of cluster
 * per-value rules (each value's own, shared by every instance, with burst, exception values and
 * quotas, refused requests taking from no bucket; always exact, leased mode or not).
 *
 * <p>A backend's test extends this class and says how to build one namespace of the backend whose
 * windows run on the given {@link ManualClock}:
 *
 * <pre>{@code
 * class JdbcTokenServiceContractTest extends TokenServiceContract {
 *   @Override
 *   protected Cluster cluster(ManualClock clock, int maxRequestsPerSecond) {
 *     String namespace = "contract-" + UUID.randomUUID();
 *     return () -> JdbcTokenService.builder(dataSource, namespace).clock(clock).build();
 *   }
 * }
 * }</pre>
 *
 * <p>The suite's rules count {@code 1} per second over a window of 10 s in 10 buckets (10 permits
 * per window, 1 s per bucket), so that real time passing during a test (a network round trip, a
 * slow machine) never matters; every change of time is a {@link ManualClock#advance}. The clock
 * starts at 1,000,000 s, a whole second. A backend that takes permits ahead of the calls that
 * spend them (leased mode) says so with {@link #exact()}: the suite then checks that it admits no
 * more than the exact decisions, instead of exactly as many.
 *
 * <p>The suite is written in parts, one per concern (flow tokens, concurrency, per-value budgets
 * and quotas), each a class this one extends, so that a backend still extends one class.
 */
public abstract class TokenServiceContract extends ValueBudgetContract {

  /** The instances of one namespace of the backend under test, all sharing its limits. */
  @FunctionalInterface
  public interface Cluster {

    /**
     * Connects a new instance to the namespace. It must be ready to decide when returned (a
     * backend that connects in the background waits here until it is connected).
     *
     * @return the instance's token service; the suite closes it (if it is {@link AutoCloseable})
     *     at the end of each test
     */
    TokenService join();
  }

  /** Creates the suite. */
  protected TokenServiceContract() {}
}
