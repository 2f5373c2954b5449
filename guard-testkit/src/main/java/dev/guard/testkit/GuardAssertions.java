package dev.guard.testkit;

import dev.guard.engine.NodeStats;

/**
 * Entry points of guard's AssertJ assertions: fluent checks on live statistics and on simulation
 * reports, with failure messages that name the resource and state the expected and actual values.
 *
 * <pre>{@code
 * import static dev.guard.testkit.GuardAssertions.assertThat;
 *
 * assertThat(engine.stats("createOrder"))
 *     .hasPassQps(5)
 *     .hasRefusedQps(3)
 *     .hasNoCallsRunning();
 * assertThat(report)
 *     .hasPassesPerWindow(Duration.ofSeconds(1), 5, 5, 5)
 *     .neverPassesMoreThanPerWindow(Duration.ofMillis(500), 5);
 * }</pre>
 *
 * <p>These methods can be statically imported next to AssertJ's {@code Assertions.assertThat}:
 * Java picks the most specific overload, which for guard's types is the one here.
 */
public final class GuardAssertions {

  private GuardAssertions() {}

  /**
   * Starts assertions on a node's live statistics (a resource, an origin, a context, an entrance
   * or the engine's inbound traffic). Every check reads the statistics afresh, at the engine's
   * current time, and failure messages name the resource of a resource's statistics.
   *
   * <pre>{@code
   * assertThat(engine.stats("createOrder")).hasTotalPass(10).hasTotalRefused(2);
   * assertThat(engine.inboundStats()).hasConcurrency(0);
   * assertThat(engine.stats("createOrder").origin("checkout").orElseThrow()).hasPassQps(2);
   * }</pre>
   *
   * @param actual the statistics
   * @return the assertion
   */
  public static NodeStatsAssert assertThat(NodeStats actual) {
    return new NodeStatsAssert(actual);
  }

  /**
   * Starts assertions on the report of a {@link TrafficSimulator} run. Failure messages name the
   * simulated guard.
   *
   * <pre>{@code
   * assertThat(TrafficSimulator.on(clock).run(guard, ArrivalSchedule.burst(8)))
   *     .hasTotalPasses(5)
   *     .hasTotalRefused(3);
   * }</pre>
   *
   * @param actual the report
   * @return the assertion
   */
  public static SimulationReportAssert assertThat(SimulationReport actual) {
    return new SimulationReportAssert(actual);
  }
}
