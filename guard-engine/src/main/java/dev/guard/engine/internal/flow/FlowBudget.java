package dev.guard.engine.internal.flow;

import dev.guard.api.rule.FlowRule;

/**
 * What a QPS rule tells a caller about its budget: its limit over a window, the calls it would
 * still admit now and when its budget grows again (docs/BEHAVIOUR.md, "Budget").
 *
 * <p>The limit is the rule's count per second, {@code ⌊count⌋} over one second; a count below one
 * call per second is one call over {@code ⌈1 / count⌉} seconds (a count of 0 is 0 over one second).
 *
 * @param rule the rule
 * @param limit the calls the rule admits per window
 * @param windowSeconds the window, in whole seconds
 * @param remaining the calls it would still admit now
 * @param resetNanos the time until its budget grows again
 */
public record FlowBudget(FlowRule rule, long limit, long windowSeconds, long remaining,
    long resetNanos) {

  static FlowBudget of(FlowRule rule, long remaining, long resetNanos) {
    double count = rule.threshold();
    if (count >= 1 || count <= 0) {
      long limit = count >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.floor(count);
      return new FlowBudget(rule, limit, 1L, Math.min(remaining, limit), resetNanos);
    }
    long window = (long) Math.ceil(1.0 / count);
    return new FlowBudget(rule, 1L, window, Math.min(remaining, 1L), resetNanos);
  }
}
