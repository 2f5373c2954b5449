package dev.guard;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step added a {@code concurrency(..)} rule: besides every {@link
 * Guard} step and decorator, it offers the steps that scope that rule. A concurrency rule has no
 * rate, so it offers no warm-up and no pacing.
 *
 * <pre>{@code
 * Guard export = Guard.of("export").concurrency(4).clusterWide();
 * }</pre>
 *
 * <p>The scoping steps follow the rule step directly, as on {@link QpsGuard}. Immutable and
 * thread-safe like every guard.
 */
public final class ConcurrencyGuard extends Guard {

  ConcurrencyGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Makes the rule a cluster rule: the engine's token service (see {@code
   * GuardEngine.Builder#tokenService}) decides it for every instance with the same flow id, a QPS
   * rule from a shared window, a concurrency rule from shared concurrency tokens. When the
   * service fails or is absent, the rule is checked locally or passes, as {@code mode} says.
   *
   * @param mode the flow id, threshold type, fallback and window
   * @return the new guard
   */
  public ConcurrencyGuard cluster(ClusterMode mode) {
    Objects.requireNonNull(mode, "mode");
    return next(rule -> FlowSteps.cluster(rule, mode));
  }

  /**
   * Makes the rule one threshold for the whole cluster, shared under the resource's name as flow
   * id, checked locally when the token service fails: {@code
   * Guard.of("export").concurrency(4).clusterWide()} lets 4 exports run at once in the whole
   * cluster.
   *
   * @return the new guard
   */
  public ConcurrencyGuard clusterWide() {
    return next(FlowSteps::clusterWide);
  }

  /**
   * Makes the rule a per-instance share of a cluster threshold: the cluster admits the count
   * times the live instances, under the resource's name as flow id, checked locally when the
   * token service fails.
   *
   * @return the new guard
   */
  public ConcurrencyGuard perInstance() {
    return next(FlowSteps::perInstance);
  }

  /**
   * Scopes the rule to callers: {@code "default"} (everyone), {@code "other"} (origins no other
   * rule of this resource names) or one origin name. The origin of a call comes from its context
   * or from {@link #origin}.
   *
   * @param origin the callers the rule applies to
   * @return the new guard
   */
  public ConcurrencyGuard fromOrigin(String origin) {
    Objects.requireNonNull(origin, "origin");
    return next(rule -> rule.withOrigin(origin));
  }

  /**
   * Makes the rule measure another resource: this one is limited when that one is busy (the
   * RELATED strategy). The rule does not apply until the other resource is entered.
   *
   * @param otherResource the resource whose statistics are measured
   * @return the new guard
   */
  public ConcurrencyGuard relatedTo(String otherResource) {
    return next(rule -> FlowSteps.relatedTo(rule, otherResource));
  }

  /**
   * Makes the rule apply only to calls made under the named context (entrance), measured on this
   * resource's node for that context (the ENTRANCE strategy).
   *
   * @param contextName the entrance name
   * @return the new guard
   */
  public ConcurrencyGuard fromEntrance(String contextName) {
    return next(rule -> FlowSteps.fromEntrance(rule, contextName));
  }

  private ConcurrencyGuard next(UnaryOperator<FlowRule> change) {
    return new ConcurrencyGuard(List.of(part().mapLastRule(FlowRule.class, change)), engine());
  }
}
