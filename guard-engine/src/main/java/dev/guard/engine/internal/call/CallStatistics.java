package dev.guard.engine.internal.call;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Records what happens to a call on every node that measures it (docs/BEHAVIOUR.md, "Statistics"): the resource-wide
 * node; the per-context node when the call's entry counts on it; the origin node when the caller
 * has one; and the engine's inbound node for {@link EntryType#IN} calls.
 *
 * <ul>
 *   <li>pass: thread +1 and pass +count (a call admitted on a borrowed pass adds no pass: the
 *       borrowing already accounted it);
 *   <li>refusal: refused +count;
 *   <li>completion: response time and success +count, exception +count when an error was traced,
 *       thread −1.
 * </ul>
 *
 * <p>Per-context nodes cost a second write of every event, so they record only where they are
 * read: for resources whose rules measure a context (CHAIN flow rules), or everywhere when the
 * engine is built with {@code contextStatistics(true)}. Whether an entry counts on its per-context
 * node is fixed when it enters, so gauges stay balanced when rules change in between.
 */
final class CallStatistics {

  private static final int KINDS = RefusedException.Kind.values().length;

  private final StatisticNode inbound;

  CallStatistics(StatisticNode inbound) {
    this.inbound = inbound;
  }

  void pass(CallEntry entry) {
    long nowMs = entry.nowMs();
    int count = entry.count();
    boolean borrowed = entry.borrowed();
    DefaultNode node = Objects.requireNonNull(entry.node());
    pass(node.cluster().stats(), nowMs, count, borrowed);
    if (entry.onContextNode) {
      pass(node.stats(), nowMs, count, borrowed);
    }
    pass(entry.originNode(), nowMs, count, borrowed);
    if (entry.type() == EntryType.IN) {
      pass(inbound, nowMs, count, borrowed);
    }
  }

  void refused(CallEntry entry, RefusedException refusal) {
    long nowMs = entry.nowMs();
    int count = entry.count();
    DefaultNode node = Objects.requireNonNull(entry.node());
    node.cluster().stats().addRefused(nowMs, count);
    node.cluster().refusalKinds(KINDS).add(nowMs, RefusedException.Kind.of(refusal).ordinal(), count);
    if (entry.onContextNode) {
      node.stats().addRefused(nowMs, count);
    }
    StatisticNode origin = entry.originNode();
    if (origin != null) {
      origin.addRefused(nowMs, count);
    }
    if (entry.type() == EntryType.IN) {
      inbound.addRefused(nowMs, count);
    }
  }

  void complete(CallEntry entry) {
    long nowMs = entry.exitMs();
    long rt = entry.rtMs();
    int count = entry.count();
    boolean failed = entry.error() != null;
    DefaultNode node = Objects.requireNonNull(entry.node());
    complete(node.cluster().stats(), nowMs, rt, count, failed);
    if (entry.onContextNode) {
      complete(node.stats(), nowMs, rt, count, failed);
    }
    complete(entry.originNode(), nowMs, rt, count, failed);
    if (entry.type() == EntryType.IN) {
      complete(inbound, nowMs, rt, count, failed);
    }
  }

  private static void pass(@Nullable StatisticNode node, long nowMs, int count, boolean borrowed) {
    if (node == null) {
      return;
    }
    node.increaseThreads();
    if (!borrowed) {
      node.addPass(nowMs, count);
    }
  }

  private static void complete(
      @Nullable StatisticNode node, long nowMs, long rtMs, int count, boolean failed) {
    if (node == null) {
      return;
    }
    node.addRtAndSuccess(nowMs, rtMs, count);
    if (failed) {
      node.addException(nowMs, count);
    }
    node.decreaseThreads();
  }
}
