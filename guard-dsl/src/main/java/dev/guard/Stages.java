package dev.guard;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Rule;
import java.util.function.UnaryOperator;

/**
 * How the steps declared once, on the stage interfaces ({@link OriginSteps}, {@link
 * StrategySteps}, {@link ClusterSteps}, {@link PerInstanceSteps}, {@link ValueSteps}), reach the
 * stage they are called on: the stage's most recent rule is changed and the result is a new guard
 * of the same stage ({@link Guard#restage}).
 *
 * <p>The interfaces are sealed and each stage implements them with its own class as the self type
 * {@code S}, so the stage {@code restage} returns is always an {@code S}.
 */
final class Stages {

  private Stages() {}

  /**
   * Changes the most recent rule of {@code stage}, which is of {@code kind}.
   *
   * @param stage a stage implementing a stage interface with itself as {@code S}
   */
  @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"})
  static <S, R extends Rule> S next(Object stage, Class<R> kind, UnaryOperator<R> change) {
    Guard guard = (Guard) stage;
    return (S) guard.restage(guard.part().mapLastRule(kind, change));
  }

  static Rule cluster(Rule rule, ClusterMode mode) {
    if (rule instanceof PerValueRule perValue) {
      return perValue.withCluster(mode);
    }
    return ((FlowRule) rule).withCluster(mode);
  }

  /** A per-value rule shares under {@code resource[argumentIndex]}, a flow rule under its resource. */
  static Rule clusterWide(Rule rule) {
    if (rule instanceof PerValueRule perValue) {
      return perValue.withCluster(
          ClusterMode.global(perValue.resource() + "[" + perValue.argumentIndex() + "]"));
    }
    FlowRule flow = (FlowRule) rule;
    return flow.withCluster(ClusterMode.global(flow.resource()));
  }
}
