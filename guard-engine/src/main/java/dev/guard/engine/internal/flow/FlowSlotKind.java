package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowRule;
import dev.guard.engine.internal.quota.LimitBudget;
import dev.guard.engine.internal.quota.QuotaBuckets;
import dev.guard.api.rule.RuleState;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.node.DefaultNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Compiles flow rules into a {@link FlowSlot}. Rules with a specific {@code origin} are
 * evaluated before {@code default} ones, otherwise in load order. A rule equal to one of the
 * previous slot keeps that rule's controller, so warm-up tokens and pacing schedules survive a
 * reload; a changed rule starts fresh.
 */
public final class FlowSlotKind implements SlotKind<FlowRule> {

  /** The flow slot's position in the chain. */
  public static final int ORDER = -2000;

  /** The one instance, so that chains can be asked for its slot. */
  public static final FlowSlotKind INSTANCE = new FlowSlotKind();

  private FlowSlotKind() {}

  /**
   * The state of a chain's warm-up rules, in slot order; read only, never on the call path.
   *
   * @param chain a resource's chain
   * @return one state per warm-up rule; empty when there is none
   */
  public static List<RuleState> warmUpStates(Chain chain) {
    if (!(chain.slotOf(INSTANCE) instanceof FlowSlot slot)) {
      return List.of();
    }
    List<RuleState> states = new ArrayList<>();
    for (CompiledFlowRule compiled : slot.rules) {
      RateSource rate = compiled.controller instanceof RefuseController reject
          ? reject.rate()
          : compiled.controller instanceof PacingController pacing ? pacing.rate() : null;
      if (rate instanceof WarmUpTokens tokens) {
        states.add(new RuleState.WarmUpState(compiled.rule, tokens.storedTokens(),
            tokens.warningToken(), tokens.maxToken(), tokens.allowedQps()));
      }
    }
    return List.copyOf(states);
  }

  /**
   * Adds the budgets of the QPS rules that apply to a caller of this origin in this context, read
   * off the call path: each rule's rate per second and each of its quotas, in the rules' order; see
   * docs/BEHAVIOUR.md, "Budget". Concurrency rules have none; a cluster rule only its quotas, as
   * this instance saw the token service grant them.
   *
   * @param chain the resource's chain
   * @param resource the resource's statistics
   * @param contextNode the resource's node for the context, if it exists
   * @param origin the caller's origin
   * @param entrance the entrance's name
   * @param into where the budgets go
   */
  public static void budget(Chain chain, ClusterNode resource,
      @Nullable DefaultNode contextNode, String origin, String entrance,
      List<LimitBudget> into) {
    if (!(chain.slotOf(INSTANCE) instanceof FlowSlot slot)) {
      return;
    }
    for (CompiledFlowRule compiled : slot.rules) {
      FlowRule rule = compiled.rule;
      if (rule.metric() == FlowRule.Metric.QPS && compiled.appliesTo(origin, entrance)) {
        slot.budgetsOf(compiled, resource, contextNode, origin, into);
      }
    }
  }

  @Override
  public int order() {
    return ORDER;
  }

  @Override
  public Class<FlowRule> ruleType() {
    return FlowRule.class;
  }

  @Override
  public boolean measuresContexts(List<FlowRule> rules) {
    return rules.stream().anyMatch(rule -> rule.strategy() == FlowRule.Strategy.ENTRANCE);
  }

  @Override
  public Slot compile(
      String resource, List<FlowRule> rules, @Nullable Slot previous, SlotContext context) {
    Map<FlowRule, CompiledFlowRule> kept = new HashMap<>();
    if (previous instanceof FlowSlot) {
      for (CompiledFlowRule old : ((FlowSlot) previous).rules) {
        kept.put(old.rule, old);
      }
    }
    Set<String> named = new HashSet<>();
    for (FlowRule rule : rules) {
      named.add(rule.origin());
    }
    named.remove(FlowRule.EVERY_ORIGIN);
    named.remove(FlowRule.OTHER_ORIGINS);
    List<FlowRule> ordered = new ArrayList<>(rules);
    ordered.sort(Comparator.comparing(rule -> rule.origin().equals(FlowRule.EVERY_ORIGIN)));
    CompiledFlowRule[] compiled = new CompiledFlowRule[ordered.size()];
    for (int i = 0; i < compiled.length; i++) {
      FlowRule rule = ordered.get(i);
      CompiledFlowRule old = kept.get(rule);
      TrafficShapingController controller = old == null
          ? Controllers.of(rule, context.occupyTimeoutMs()) : old.controller;
      QuotaBuckets quotas = old == null ? CompiledFlowRule.quotasOf(rule, context) : old.quotas;
      QuotaBuckets view = old == null
          ? CompiledFlowRule.clusterViewOf(rule, context) : old.clusterView;
      compiled[i] = new CompiledFlowRule(rule, controller, quotas, view, Set.copyOf(named),
          context);
    }
    return new FlowSlot(compiled, context);
  }
}
