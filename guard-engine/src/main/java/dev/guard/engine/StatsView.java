package dev.guard.engine;

import dev.guard.engine.internal.EngineCore;
import dev.guard.engine.NodeStats;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.List;
import java.util.function.Supplier;

/**
 * A {@link NodeStats} that reads one or more statistic nodes at the engine's current time; with
 * several nodes (an entrance's children) rates and totals are sums, the concurrency is the sum,
 * the average response time is pass-weighted and the minimum is the smallest.
 */
class StatsView implements NodeStats {

  private final EngineCore core;
  private final Supplier<List<StatisticNode>> nodes;

  StatsView(EngineCore core, Supplier<List<StatisticNode>> nodes) {
    this.core = core;
    this.nodes = nodes;
  }

  private interface Read {
    double of(StatisticNode node, long nowMs);
  }

  private double sum(Read read) {
    long now = core.nowMs();
    double total = 0;
    for (StatisticNode node : nodes.get()) {
      total += read.of(node, now);
    }
    return total;
  }

  @Override
  public double passQps() {
    return sum(StatisticNode::passQps);
  }

  @Override
  public double refusedQps() {
    return sum(StatisticNode::refusedQps);
  }

  @Override
  public double successQps() {
    return sum(StatisticNode::successQps);
  }

  @Override
  public double exceptionQps() {
    return sum(StatisticNode::exceptionQps);
  }

  @Override
  public double averageRt() {
    double success = successQps();
    return success == 0 ? 0 : sum((node, now) -> node.avgRt(now) * node.successQps(now)) / success;
  }

  @Override
  public double minRt() {
    long now = core.nowMs();
    double min = Double.MAX_VALUE;
    for (StatisticNode node : nodes.get()) {
      min = Math.min(min, node.minRt(now));
    }
    return min == Double.MAX_VALUE ? 5000 : min;
  }

  @Override
  public double previousPassQps() {
    return sum(StatisticNode::previousPassQps);
  }

  @Override
  public long concurrency() {
    return (long) sum((node, now) -> node.concurrency());
  }

  @Override
  public long totalPass() {
    return (long) sum(StatisticNode::totalPass);
  }

  @Override
  public long totalRequest() {
    return (long) sum(StatisticNode::totalRequest);
  }

  @Override
  public long totalRefused() {
    return (long) sum(StatisticNode::refusedRequest);
  }

  @Override
  public long totalException() {
    return (long) sum(StatisticNode::totalException);
  }

  @Override
  public String toString() {
    return "NodeStats[pass=" + passQps() + "/s, refused=" + refusedQps() + "/s, concurrency="
        + concurrency() + "]";
  }
}
