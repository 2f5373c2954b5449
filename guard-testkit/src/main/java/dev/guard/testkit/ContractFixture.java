package dev.guard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.spi.TokenService;
import dev.guard.spi.TokenService.Result.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * What every part of the {@link TokenServiceContract} stands on: the suite's clock, the namespace
 * a test joins (built on first use, every instance closed after the test), the backend's hooks
 * and the helpers that count grants.
 *
 * <p>Invariants: each test gets a fresh namespace and a clock starting at 1,000,000 s, a whole
 * second, so no test sees another's state; every change of time is a {@link ManualClock#advance}.
 * An exact backend is held to exactly the expected counts, one that takes permits ahead ({@link
 * #exact()} false) to no more than them ({@link #expect}). The parts extend each other in a line
 * (fixture, flow tokens, concurrency, value budgets) only so that a backend extends one class.
 */
abstract class ContractFixture {

  /** The flow id of the suite's rules. */
  protected static final String FLOW_ID = "contract";

  /** The suite's window: 10 s in 10 buckets of 1 s. */
  protected static final Duration WINDOW = Duration.ofSeconds(10);

  private static final long START_NANOS = 1_000_000_000_000_000L;

  final ManualClock clock = ManualClock.startingAt(START_NANOS);
  private final List<TokenService> joined = new ArrayList<>();
  private TokenServiceContract.Cluster cluster = this::noCluster;

  /**
   * Builds a fresh namespace of the backend (no state shared with other tests) whose windows,
   * instance expiry and concurrency tokens run on {@code clock}.
   *
   * @param clock the time of every decision
   * @param maxRequestsPerSecond the namespace's request limit per second; {@code 0} for none (a
   *     backend that always has one uses its default, which must be well above 100)
   * @return the namespace
   */
  protected abstract TokenServiceContract.Cluster cluster(ManualClock clock,
      int maxRequestsPerSecond);

  /**
   * Whether every permit the backend counts in a window was granted to a call. False for a
   * backend that takes permits ahead (leased mode): it is then held to admitting no more than the
   * exact decisions. Default: true.
   *
   * @return whether the backend's counts are exact
   */
  protected boolean exact() {
    return true;
  }

  /**
   * How long an instance that stopped asking (closed) still counts for per-instance thresholds.
   * Default: zero (it stops counting when it closes).
   *
   * @return the instance expiry
   */
  protected Duration instanceExpiry() {
    return Duration.ZERO;
  }

  /**
   * The suite's QPS rule: {@code count} per second over the suite's window, for the whole cluster.
   *
   * @param count permits per second
   * @return the rule
   */
  protected static FlowRule rule(double count) {
    return FlowRule.qps("contract", count)
        .withCluster(ClusterMode.global(FLOW_ID).withWindow(10, WINDOW));
  }

  /** Closes every instance the test joined. */
  @AfterEach
  void leave() throws Exception {
    for (TokenService service : joined) {
      if (service instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }

  /** A cluster concurrency rule: {@code count} at once, tokens living 60 s. */
  static FlowRule concurrency(int count) {
    return FlowRule.concurrency("contract", count).withCluster(
        ClusterMode.global(FLOW_ID + "-concurrency").withLeaseTime(Duration.ofSeconds(60)));
  }

  /** Joins the test's namespace (built on first use with the given request limit). */
  TokenService join(int maxRequestsPerSecond) {
    if (joined.isEmpty()) {
      cluster = cluster(clock, maxRequestsPerSecond);
    }
    TokenService service = cluster.join();
    joined.add(service);
    return service;
  }

  TokenService noCluster() {
    throw new IllegalStateException("no namespace yet");
  }

  static void close(TokenService service) throws Exception {
    if (service instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  /** Asks {@code calls} times for one permit; returns how many were granted at once. */
  static int granted(TokenService service, FlowRule rule, int calls) {
    int ok = 0;
    for (int i = 0; i < calls; i++) {
      if (service.requestToken(rule, 1, false).status() == Status.OK) {
        ok++;
      }
    }
    return ok;
  }

  /** Asks for one permit until refused (REFUSED); returns how many were granted before. */
  static int untilRefused(TokenService service, FlowRule rule) {
    int ok = 0;
    TokenService.Result answer;
    while ((answer = service.requestToken(rule, 1, false)).status() == Status.OK && ok < 1000) {
      ok++;
    }
    assertThat(answer.status()).as("the refusal after %d grants", ok).isEqualTo(Status.REFUSED);
    return ok;
  }

  /** Exactly {@code expected} for an exact backend; no more for one that takes permits ahead. */
  void expect(int actual, int expected) {
    if (exact()) {
      assertThat(actual).isEqualTo(expected);
    } else {
      assertThat(actual).isBetween(1, expected);
    }
  }
}
