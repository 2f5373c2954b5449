package dev.guard;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;

/** The flow-rule changes that {@link QpsGuard} and {@link ConcurrencyGuard} share. */
final class FlowSteps {

  private FlowSteps() {}

  static FlowRule cluster(FlowRule rule, ClusterMode mode) {
    return rule.withCluster(mode);
  }

  static FlowRule clusterWide(FlowRule rule) {
    return rule.withCluster(ClusterMode.global(rule.resource()));
  }

  static FlowRule perInstance(FlowRule rule) {
    return rule.withCluster(ClusterMode.perInstance(rule.resource()));
  }

  static FlowRule relatedTo(FlowRule rule, String otherResource) {
    return rule.withStrategy(FlowRule.Strategy.RELATED, otherResource);
  }

  static FlowRule fromEntrance(FlowRule rule, String contextName) {
    return rule.withStrategy(FlowRule.Strategy.ENTRANCE, contextName);
  }
}
