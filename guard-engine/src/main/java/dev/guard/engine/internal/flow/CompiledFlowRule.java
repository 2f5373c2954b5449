package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.chain.Call;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.node.DefaultNode;
import dev.guard.engine.internal.quota.QuotaBuckets;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One flow rule ready to decide calls: its controller (whose state survives reloads of an equal
 * rule), its preallocated refusal, and node selection (docs/BEHAVIOUR.md, "Flow rules").
 *
 * <p>Node selection: the rule applies to a call when its {@code origin} is {@code default}, equals
 * the call's origin, or is {@code other} and no rule of the resource names the origin. It then
 * measures, by strategy: DIRECT — the origin node for an origin-specific or {@code other} rule,
 * else the resource's cluster node; RELATE — the cluster node of the related resource (from the
 * first call: a related resource the engine does not track yet is tracked from then on, so the
 * rule never depends on whether that resource was entered before); CHAIN — this resource's node for the
 * call's context, only when the context name is the rule's entrance.
 *
 * <p>A rule with quotas keeps their buckets here ({@link QuotaBuckets}: the per-value rules'
 * arithmetic on one constant key), and survives reloads of an equal rule with its controller; a
 * cluster rule also keeps its view of the shared quotas ({@link #clusterView}).
 */
final class CompiledFlowRule {

  final FlowRule rule;
  final TrafficShapingController controller;
  final RefusedException.Flow refusal;
  final boolean precise;
  /** The rule's cluster mode; null for a rule decided by this instance alone. */
  final @Nullable ClusterMode cluster;
  /** The rule's quotas on this instance; null for a rule without quotas. */
  final @Nullable QuotaBuckets quotas;
  /**
   * For a cluster rule with quotas, this instance's view of them: the calls the token service
   * granted it, counted in buckets of their own (the rule's {@link #quotas} decide only while the
   * service is away); what budget reports tell of the shared quotas without asking the service.
   * Null otherwise.
   */
  final @Nullable QuotaBuckets clusterView;
  /** The refusal of a call a quota refused, reading the quotas' refill; null without quotas. */
  final RefusedException.@Nullable Flow quotaRefusal;
  private final Set<String> namedApps;
  private final boolean forEveryone;
  private final boolean forOthers;
  private final FlowRule.Strategy strategy;

  CompiledFlowRule(FlowRule rule, TrafficShapingController controller,
      @Nullable QuotaBuckets quotas, @Nullable QuotaBuckets clusterView, Set<String> namedApps,
      SlotContext engine) {
    this.rule = rule;
    this.controller = controller;
    int bucketLengthMs = engine.secondWindow().bucketLengthMs();
    this.refusal = new RefusedException.Flow(rule.resource(), rule,
        () -> controller.retryAfterNanos(engine.preciseNowNanos(), bucketLengthMs));
    this.precise = controller.needsPreciseTime();
    this.quotas = quotas;
    this.clusterView = clusterView;
    this.quotaRefusal = quotas == null ? null : new RefusedException.Flow(rule.resource(), rule,
        () -> quotas.retryAfterNanos(1, engine.preciseNowNanos()));
    this.cluster = rule.cluster();
    this.namedApps = namedApps;
    this.forEveryone = rule.origin().equals(FlowRule.EVERY_ORIGIN);
    this.forOthers = rule.origin().equals(FlowRule.OTHER_ORIGINS);
    this.strategy = rule.strategy();
  }

  /** The quotas of a rule, full now; null for a rule without quotas. */
  static @Nullable QuotaBuckets quotasOf(FlowRule rule, SlotContext engine) {
    return rule.quotas().isEmpty() ? null : new QuotaBuckets(rule.quotas(), engine.preciseNowNanos());
  }

  /** This instance's view of a cluster rule's quotas, full now; null for other rules. */
  static @Nullable QuotaBuckets clusterViewOf(FlowRule rule, SlotContext engine) {
    return rule.cluster() == null ? null : quotasOf(rule, engine);
  }

  /** The node this rule measures for a call, or null when the rule does not apply to it. */
  @Nullable StatisticNode select(Call entry, SlotContext engine) {
    boolean specific = !forEveryone;
    if (specific) {
      String origin = entry.origin();
      boolean applies = forOthers
          ? !origin.isEmpty() && !namedApps.contains(origin)
          : rule.origin().equals(origin);
      if (!applies) {
        return null;
      }
    }
    // comparisons, not a switch on the enum: this runs on every call
    if (strategy == FlowRule.Strategy.DIRECT) {
      if (specific) {
        return entry.originNode();
      }
      DefaultNode own = entry.node();
      return own == null ? null : own.cluster().stats();
    }
    if (strategy == FlowRule.Strategy.RELATED) {
      ClusterNode related = engine.clusterNodeOf(Objects.requireNonNull(rule.reference()));
      return related == null ? null : related.stats();
    }
    DefaultNode node = entry.node(); // CHAIN
    return node != null && entry.entrance().equals(rule.reference()) ? node.stats() : null;
  }

  /**
   * The node this rule measures for a call of this origin in this context, read off the call path
   * for budget reports: as {@link #select}, but creating no node.
   *
   * @return the node, or null when the rule measures no node yet (whether the rule applies at all
   *     is told by {@link #appliesTo})
   */
  @Nullable StatisticNode existingNode(ClusterNode resource, @Nullable DefaultNode contextNode,
      String origin, SlotContext engine) {
    if (strategy == FlowRule.Strategy.DIRECT) {
      return forEveryone ? resource.stats() : resource.existingOriginNode(origin);
    }
    if (strategy == FlowRule.Strategy.RELATED) {
      ClusterNode related = engine.clusterNodeOf(Objects.requireNonNull(rule.reference()));
      return related == null ? null : related.stats();
    }
    return contextNode == null ? null : contextNode.stats();
  }

  /** Whether this rule applies to a call of this origin in the context of this name. */
  boolean appliesTo(String origin, String entrance) {
    if (!forEveryone) {
      boolean applies = forOthers
          ? !origin.isEmpty() && !namedApps.contains(origin)
          : rule.origin().equals(origin);
      if (!applies) {
        return false;
      }
    }
    return strategy != FlowRule.Strategy.ENTRANCE || entrance.equals(rule.reference());
  }
}
