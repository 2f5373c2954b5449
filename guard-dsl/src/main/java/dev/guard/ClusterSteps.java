package dev.guard;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.Rule;
import java.util.Objects;

/**
 * The steps that share a stage's rule between instances through the engine's token service
 * (docs/CLUSTER.md), shared by {@link QpsGuard}, {@link ConcurrencyGuard}, {@link QuotaGuard}
 * and {@link PerValueGuard}. A rule that warms up or paces is decided by each instance alone, so
 * {@link ShapedQpsGuard} and {@link PacedPerValueGuard} do not offer them.
 *
 * <pre>{@code
 * ConcurrencyGuard export = Guard.of("export").concurrency(4).clusterWide();
 * }</pre>
 *
 * @param <S> the stage, which the steps return
 */
public sealed interface ClusterSteps<S extends ClusterSteps<S>>
    permits QpsGuard, ConcurrencyGuard, QuotaGuard, PerValueGuard {

  /**
   * Makes the rule a cluster rule: the engine's token service (see {@code
   * GuardEngine.Builder#tokenService}) decides it for every instance with the same flow id, a QPS
   * rule from a shared window, a concurrency rule from shared concurrency tokens, a rule with
   * quotas or a per-value rule from shared budgets. When the service fails or is absent, the rule
   * is checked locally or passes, as {@code mode} says ({@code ClusterMode.global("api-keys")
   * .withFallbackToLocal(false)}).
   *
   * @param mode the flow id, threshold type, fallback and window; a rule with quotas and a
   *     per-value rule take only a {@link ClusterMode.Threshold#GLOBAL} mode, a per-value rule
   *     only with the default window, buckets and lease time
   * @return the new guard, of the same stage
   * @throws IllegalArgumentException if the mode does not fit the rule
   */
  default S cluster(ClusterMode mode) {
    Objects.requireNonNull(mode, "mode");
    return Stages.next(this, Rule.class, rule -> Stages.cluster(rule, mode));
  }

  /**
   * Makes the rule one threshold for the whole cluster, checked locally when the token service
   * cannot decide: {@code Guard.of("export").concurrency(4).clusterWide()} lets 4 exports run at
   * once in the whole cluster. A rule with quotas shares its quotas too; a per-value rule shares
   * each value's budget (its count per period with burst, its exception threshold, every quota).
   * The flow id is the resource's name, for a per-value rule {@code resource[argumentIndex]}.
   *
   * @return the new guard, of the same stage
   */
  default S clusterWide() {
    return Stages.next(this, Rule.class, Stages::clusterWide);
  }
}
