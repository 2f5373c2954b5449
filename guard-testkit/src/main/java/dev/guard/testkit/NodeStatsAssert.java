package dev.guard.testkit;

import dev.guard.engine.NodeStats;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;

/**
 * AssertJ assertions on the live statistics of a resource or node; obtain one with {@link
 * GuardAssertions#assertThat(NodeStats)}.
 *
 * <pre>{@code
 * assertThat(engine.stats("createOrder"))
 *     .hasPassQps(5).hasRefusedQps(1)
 *     .hasTotalPass(5).hasTotalRefused(1)
 *     .hasNoCallsRunning();
 * }</pre>
 *
 * <p>Each check reads the statistic when it runs, at the engine's current time. Rates and response
 * times are doubles and match when they differ by at most one part in a billion (or {@code 1e-9}
 * near zero). A failure reads, for example, {@code Expected resource 'createOrder' to have passQps
 * 5.0 but was 3.0}. Not thread-safe, like all AssertJ assertions.
 */
public final class NodeStatsAssert extends AbstractAssert<NodeStatsAssert, NodeStats> {

  private static final double TOLERANCE = 1e-9;

  NodeStatsAssert(@Nullable NodeStats actual) {
    super(actual, NodeStatsAssert.class);
  }

  /**
   * Checks the rate of admitted calls, per second over the engine's second-level window.
   *
   * @param expected the expected {@link NodeStats#passQps()}
   * @return this assertion
   * @throws AssertionError if the statistics are null or the rate differs
   */
  public NodeStatsAssert hasPassQps(double expected) {
    return hasRate("passQps", NodeStats::passQps, expected);
  }

  /**
   * Checks the rate of refused calls, per second over the engine's second-level window.
   *
   * @param expected the expected {@link NodeStats#refusedQps()}
   * @return this assertion
   * @throws AssertionError if the statistics are null or the rate differs
   */
  public NodeStatsAssert hasRefusedQps(double expected) {
    return hasRate("refusedQps", NodeStats::refusedQps, expected);
  }

  /**
   * Checks the mean response time of the calls completed in the second-level window.
   *
   * @param expectedMillis the expected {@link NodeStats#averageRt()}, in milliseconds
   * @return this assertion
   * @throws AssertionError if the statistics are null or the value differs
   */
  public NodeStatsAssert hasAverageRt(double expectedMillis) {
    return hasRate("averageRt", NodeStats::averageRt, expectedMillis);
  }

  /**
   * Checks how many calls are running right now.
   *
   * @param expected the expected {@link NodeStats#concurrency()}
   * @return this assertion
   * @throws AssertionError if the statistics are null or the gauge differs
   */
  public NodeStatsAssert hasConcurrency(long expected) {
    return hasCount("concurrency", NodeStats::concurrency, expected);
  }

  /**
   * Checks that no call is running: every admitted call has exited.
   *
   * @return this assertion
   * @throws AssertionError if the statistics are null or the concurrency gauge is not 0
   */
  public NodeStatsAssert hasNoCallsRunning() {
    isNotNull();
    long running = actual.concurrency();
    if (running != 0) {
      failWithActualExpectedAndMessage(running, 0L,
          "%nExpected %s to have no calls running but concurrency was %s", subject(), running);
    }
    return this;
  }

  /**
   * Checks the number of admitted calls over the minute-level window.
   *
   * @param expected the expected {@link NodeStats#totalPass()}
   * @return this assertion
   * @throws AssertionError if the statistics are null or the total differs
   */
  public NodeStatsAssert hasTotalPass(long expected) {
    return hasCount("totalPass", NodeStats::totalPass, expected);
  }

  /**
   * Checks the number of refused calls over the minute-level window.
   *
   * @param expected the expected {@link NodeStats#totalRefused()}
   * @return this assertion
   * @throws AssertionError if the statistics are null or the total differs
   */
  public NodeStatsAssert hasTotalRefused(long expected) {
    return hasCount("totalRefused", NodeStats::totalRefused, expected);
  }

  /**
   * Checks the number of calls with a recorded business error over the minute-level window.
   *
   * @param expected the expected {@link NodeStats#totalException()}
   * @return this assertion
   * @throws AssertionError if the statistics are null or the total differs
   */
  public NodeStatsAssert hasTotalException(long expected) {
    return hasCount("totalException", NodeStats::totalException, expected);
  }

  private NodeStatsAssert hasRate(String name, ToDoubleFunction<NodeStats> read, double expected) {
    isNotNull();
    double value = read.applyAsDouble(actual);
    if (!(Math.abs(value - expected) <= TOLERANCE * Math.max(1, Math.abs(expected)))) {
      failWithActualExpectedAndMessage(value, expected, "%nExpected %s to have %s %s but was %s",
          subject(), name, expected, value);
    }
    return this;
  }

  private NodeStatsAssert hasCount(String name, ToLongFunction<NodeStats> read, long expected) {
    isNotNull();
    long value = read.applyAsLong(actual);
    if (value != expected) {
      failWithActualExpectedAndMessage(value, expected, "%nExpected %s to have %s %s but was %s",
          subject(), name, expected, value);
    }
    return this;
  }

  private String subject() {
    NodeStats stats = actual;
    return stats == null ? "node statistics"
        : stats.resource().map(name -> "resource '" + name + "'").orElse("node statistics");
  }
}
