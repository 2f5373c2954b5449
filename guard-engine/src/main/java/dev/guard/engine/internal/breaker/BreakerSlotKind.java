package dev.guard.engine.internal.breaker;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.Slot;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Compiles circuit breaker rules into a {@link BreakerSlot}, one breaker per rule in load order. A rule
 * equal to one of the previous slot keeps that rule's breaker (state, window, probes in flight);
 * a changed rule starts a new, closed breaker.
 */
public final class BreakerSlotKind implements SlotKind<CircuitBreakerRule> {

  /** The breaker slot's position in the chain: after flow control. */
  public static final int ORDER = -1000;

  /** The one instance, so that chains can be asked for its slot. */
  public static final BreakerSlotKind INSTANCE = new BreakerSlotKind();

  private BreakerSlotKind() {}

  /**
   * The breakers of a chain, in rule order.
   *
   * @param chain a resource's chain
   * @return its breakers; empty when it has no circuit breaker rules
   */
  public static List<CircuitBreaker> breakers(Chain chain) {
    Slot slot = chain.slotOf(INSTANCE);
    return slot instanceof BreakerSlot breaker ? breaker.view() : List.of();
  }

  @Override
  public int order() {
    return ORDER;
  }

  @Override
  public Class<CircuitBreakerRule> ruleType() {
    return CircuitBreakerRule.class;
  }

  @Override
  public Slot compile(
      String resource, List<CircuitBreakerRule> rules, @Nullable Slot previous, SlotContext context) {
    Map<CircuitBreakerRule, Breaker> kept = new HashMap<>();
    if (previous instanceof BreakerSlot old) {
      for (Breaker breaker : old.breakers) {
        kept.put(breaker.rule(), breaker);
      }
    }
    Breaker[] breakers = new Breaker[rules.size()];
    for (int i = 0; i < breakers.length; i++) {
      CircuitBreakerRule rule = rules.get(i);
      Breaker breaker = kept.get(rule);
      breakers[i] = breaker != null ? breaker : new Breaker(resource, rule, context);
    }
    return new BreakerSlot(breakers);
  }
}
