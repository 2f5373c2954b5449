package dev.guard;

import dev.guard.api.rule.FlowRule;

/**
 * The steps that choose what a stage's flow rule measures, shared by {@link QpsGuard}, {@link
 * ShapedQpsGuard} and {@link ConcurrencyGuard}. A rule with quotas measures its own resource
 * only, so {@link QuotaGuard} does not offer them.
 *
 * <pre>{@code
 * QpsGuard reads = Guard.of("readOrders").qps(50).relatedTo("writeOrders");
 * }</pre>
 *
 * @param <S> the stage, which the steps return
 */
public sealed interface StrategySteps<S extends StrategySteps<S>>
    permits QpsGuard, ShapedQpsGuard, ConcurrencyGuard {

  /**
   * Makes the rule measure another resource: this one is limited when that one is busy (the
   * RELATED strategy). The rule does not apply until the other resource is entered.
   *
   * @param otherResource the resource whose statistics are measured
   * @return the new guard, of the same stage
   */
  default S relatedTo(String otherResource) {
    return Stages.next(this, FlowRule.class,
        rule -> rule.withStrategy(FlowRule.Strategy.RELATED, otherResource));
  }

  /**
   * Makes the rule apply only to calls made under the named context (entrance), measured on this
   * resource's node for that context (the ENTRANCE strategy).
   *
   * @param entrance the entrance name
   * @return the new guard, of the same stage
   */
  default S fromEntrance(String entrance) {
    return Stages.next(this, FlowRule.class,
        rule -> rule.withStrategy(FlowRule.Strategy.ENTRANCE, entrance));
  }
}
