package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowGrade;
import dev.guard.engine.internal.stat.StatisticNode;
import org.jspecify.annotations.Nullable;

/**
 * Fast reject: pass while {@code used + permits <= count}, where {@code used} is {@code
 * ⌊passQps⌋} for QPS rules and the live concurrency for concurrency rules. A prioritized QPS call
 * over the limit may instead borrow a pass from the next bucket of the selected node's window if
 * that bucket starts within the occupy timeout and, once the oldest bucket slides out, the window
 * would hold no more than {@code count} passes including everything already borrowed. The
 * controller only decides; the flow slot registers the borrowed pass and waits.
 *
 * <p>A QPS rule that measures every call of its resource (DIRECT, {@code limitApp} default) decides
 * from a {@link PassBudget} instead of reading the window on every call: the same decisions, but a
 * decision touches only the calling thread's cell, so threads on one resource do not pass the
 * window's counters between cores, and admissions within a bucket never exceed the limit.
 */
final class RejectController implements TrafficShapingController {

  private final FlowGrade grade;
  private final double count;
  private final long occupyTimeoutMs;
  private final @Nullable PassBudget budget;

  /**
   * Creates a controller.
   *
   * @param grade what {@code count} limits
   * @param count the limit
   * @param occupyTimeoutMs the longest wait of a prioritized call on a borrowed pass
   * @param budgeted whether QPS decisions may use a {@link PassBudget}: only for rules that
   *     measure every call of their resource on its cluster node
   */
  RejectController(FlowGrade grade, double count, long occupyTimeoutMs, boolean budgeted) {
    this.grade = grade;
    this.count = count;
    this.occupyTimeoutMs = occupyTimeoutMs;
    this.budget = budgeted && grade == FlowGrade.QPS ? new PassBudget() : null;
  }

  @Override
  public long decide(FlowMetrics node, int permits, boolean prioritized, long nowNanos, long nowMs) {
    PassBudget passes = budget;
    if (passes != null && node instanceof StatisticNode) {
      int taken = passes.acquire((StatisticNode) node, count, permits, nowMs);
      if (taken == PassBudget.ADMITTED) {
        return Decision.PASS;
      }
      if (taken == PassBudget.REFUSED) {
        return prioritized ? borrow((StatisticNode) node, permits, nowMs) : Decision.BLOCK;
      }
    }
    long used = grade == FlowGrade.QPS ? (long) node.passQps(nowMs) : node.concurrency();
    if (used + permits <= count) {
      return Decision.PASS;
    }
    if (prioritized && grade == FlowGrade.QPS && node instanceof StatisticNode) {
      return borrow((StatisticNode) node, permits, nowMs);
    }
    return Decision.BLOCK;
  }

  private long borrow(StatisticNode node, int permits, long nowMs) {
    long waitMs = node.tryOccupyNext(nowMs, permits, count, occupyTimeoutMs);
    return waitMs < occupyTimeoutMs ? Decision.borrowThenPass(waitMs * 1_000_000L) : Decision.BLOCK;
  }

  @Override
  public void refund(int permits, long decidedAtMs) {
    PassBudget passes = budget;
    if (passes != null) {
      passes.refund(permits, decidedAtMs);
    }
  }
}
