package dev.guard;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;

/**
 * The step that makes a stage's flow rule a per-instance share of a cluster threshold, shared by
 * {@link QpsGuard} and {@link ConcurrencyGuard}.
 *
 * <pre>{@code
 * QpsGuard search = Guard.of("search").qps(100).perInstance();
 * }</pre>
 *
 * @param <S> the stage, which the step returns
 */
public sealed interface PerInstanceSteps<S extends PerInstanceSteps<S>>
    permits QpsGuard, ConcurrencyGuard {

  /**
   * Makes the rule a per-instance share of a cluster threshold: the cluster admits the count
   * times the live instances, under the resource's name as flow id, checked locally when the
   * token service fails.
   *
   * @return the new guard, of the same stage
   */
  default S perInstance() {
    return Stages.next(this, FlowRule.class,
        rule -> rule.withCluster(ClusterMode.perInstance(rule.resource())));
  }
}
