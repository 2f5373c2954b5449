package dev.guard;

import dev.guard.api.rule.FlowRule;
import java.util.Objects;

/**
 * The step that scopes a stage's rule to callers, shared by the stages of flow rules ({@link
 * QpsGuard}, {@link ShapedQpsGuard}, {@link QuotaGuard}, {@link ConcurrencyGuard}).
 *
 * <pre>{@code
 * QpsGuard mobile = Guard.of("createOrder").qps(20).fromOrigin("mobile");
 * }</pre>
 *
 * @param <S> the stage, which the step returns
 */
public sealed interface OriginSteps<S extends OriginSteps<S>>
    permits QpsGuard, ShapedQpsGuard, QuotaGuard, ConcurrencyGuard {

  /**
   * Scopes the rule to callers: {@code "default"} (everyone), {@code "other"} (origins no other
   * rule of this resource names) or one origin name. The origin of a call comes from its context
   * or from {@link Guard#origin}. A rule with quotas is scoped with its quotas.
   *
   * @param origin the callers the rule applies to
   * @return the new guard, of the same stage
   */
  default S fromOrigin(String origin) {
    Objects.requireNonNull(origin, "origin");
    return Stages.next(this, FlowRule.class, rule -> rule.withOrigin(origin));
  }
}
