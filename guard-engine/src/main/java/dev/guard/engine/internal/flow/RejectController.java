package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowGrade;
import dev.guard.engine.internal.stat.StatisticNode;

/**
 * Fast reject: pass while {@code used + permits <= count}, where {@code used} is {@code
 * ⌊passQps⌋} for QPS rules and the live concurrency for concurrency rules. A prioritized QPS call
 * over the limit may instead borrow a pass from the next bucket of the selected node's window if
 * that bucket starts within the occupy timeout and, once the oldest bucket slides out, the window
 * would hold no more than {@code count} passes including everything already borrowed. The
 * controller only decides; the flow slot registers the borrowed pass and waits.
 */
final class RejectController implements TrafficShapingController {

  private final FlowGrade grade;
  private final double count;
  private final long occupyTimeoutMs;

  RejectController(FlowGrade grade, double count, long occupyTimeoutMs) {
    this.grade = grade;
    this.count = count;
    this.occupyTimeoutMs = occupyTimeoutMs;
  }

  @Override
  public long decide(FlowMetrics node, int permits, boolean prioritized, long nowNanos, long nowMs) {
    long used = grade == FlowGrade.QPS ? (long) node.passQps(nowMs) : node.concurrency();
    if (used + permits <= count) {
      return Decision.PASS;
    }
    if (prioritized && grade == FlowGrade.QPS && node instanceof StatisticNode) {
      long waitMs = ((StatisticNode) node).tryOccupyNext(nowMs, permits, count, occupyTimeoutMs);
      if (waitMs < occupyTimeoutMs) {
        return Decision.borrowThenPass(waitMs * 1_000_000L);
      }
    }
    return Decision.BLOCK;
  }
}
