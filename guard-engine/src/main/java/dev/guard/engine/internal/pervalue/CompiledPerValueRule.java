package dev.guard.engine.internal.pervalue;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.spi.Cap;
import dev.guard.engine.internal.chain.SlotContext;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One per-value rule ready to decide calls: its gate, its table of values (whose state
 * survives reloads of an equal rule: the slot kind reuses this object) and how it finds its value
 * among a call's arguments.
 *
 * <p>Which value: the rule's index, or for a negative index {@code arguments + index}, resolved
 * for every call (the rule never changes); an index outside the call's arguments, or a null
 * argument, means the rule does not apply. A collection or array argument is checked element by
 * element (null elements are skipped): first every element is checked without changing anything,
 * and only if all would pass are tokens taken, in the same order; if a take still fails (another
 * thread took the last token in between), the elements already taken are given back. So a refused
 * call consumes nothing.
 */
final class CompiledPerValueRule {

  final PerValueRule rule;
  final ValueGate gate;
  final ValueTable table;
  private final String resource;
  private final int index;
  private final int count;
  private final boolean exceptions;

  CompiledPerValueRule(String resource, PerValueRule rule, SlotContext engine) {
    this.resource = resource;
    this.rule = rule;
    this.index = rule.argumentIndex();
    this.count = rule.threshold();
    this.exceptions = !rule.exceptions().isEmpty();
    this.gate = gateOf(rule);
    this.table = new ValueTable(gate, rule.maxValues(),
        forgotten -> engine.reportOverflow(Cap.VALUES, resource, forgotten));
  }

  private static ValueGate gateOf(PerValueRule rule) {
    if (rule.metric() == FlowRule.Metric.CONCURRENCY) {
      return new ConcurrencyGate();
    }
    if (rule.shaping() == FlowRule.Shaping.PACING) {
      return new PacingGate(rule.period().toNanos(), rule.maxQueueingTime().toNanos());
    }
    return new TokenBucketGate(rule.period().toMillis(), rule.burst());
  }

  /**
   * The position of this rule's argument in a call with {@code arguments} arguments.
   *
   * @return the position, or −1 when the call has no such argument
   */
  int resolve(int arguments) {
    int at = index < 0 ? arguments + index : index;
    return at >= 0 && at < arguments ? at : -1;
  }

  private int threshold(Object value) {
    return exceptions ? rule.thresholdOf(value) : count;
  }

  private ValueState stateOf(Object value, long nowNanos) {
    ValueState state = table.find(value);
    if (state != null) {
      return state;
    }
    int threshold = threshold(value);
    return table.insert(value, new ValueState(threshold, gate.initialBits(threshold, nowNanos)));
  }

  /**
   * Admits a call's argument, taking what the gate needs for every value in it.
   *
   * @param value the argument (non-null)
   * @param permits the call's permits
   * @param nowNanos engine time (precise if the gate asks for it)
   * @return the wait in nanoseconds ({@code >= 0}) if admitted, or {@code −(k + 1)} if refused
   *     because of element {@code k} (0 for a single value); nothing is taken when refused
   */
  long admit(Object value, int permits, long nowNanos) {
    Object elements = Elements.of(value);
    if (elements == null) {
      return takeOne(value, permits, nowNanos);
    }
    int size = Elements.size(elements);
    for (int k = 0; k < size; k++) {
      Object element = Elements.get(elements, k);
      if (element != null) {
        ValueState state = table.find(element);
        int threshold = state == null ? threshold(element) : state.threshold;
        if (!gate.admits(state, threshold, permits, nowNanos)) {
          return -(k + 1L);
        }
      }
    }
    long wait = 0;
    for (int k = 0; k < size; k++) {
      Object element = Elements.get(elements, k);
      if (element != null) {
        long taken = takeOne(element, permits, nowNanos);
        if (taken < 0) {
          giveBack(elements, k, permits);
          return -(k + 1L);
        }
        wait = Math.max(wait, taken);
      }
    }
    return wait;
  }

  private long takeOne(Object value, int permits, long nowNanos) {
    ValueState state = stateOf(value, nowNanos);
    long taken;
    while ((taken = gate.take(state, permits, nowNanos)) == ValueGate.RETIRED) {
      state = stateOf(value, nowNanos);
    }
    return taken;
  }

  /**
   * Gives back what {@link #admit} took for an argument.
   *
   * @param value the argument, as admitted
   * @param permits the call's permits
   */
  void giveBack(Object value, int permits) {
    Object elements = Elements.of(value);
    if (elements == null) {
      giveBackOne(value, permits);
    } else {
      giveBack(elements, Elements.size(elements), permits);
    }
  }

  private void giveBack(Object elements, int upTo, int permits) {
    for (int k = 0; k < upTo; k++) {
      Object element = Elements.get(elements, k);
      if (element != null) {
        giveBackOne(element, permits);
      }
    }
  }

  private void giveBackOne(Object value, int permits) {
    ValueState state = table.find(value);
    if (state != null) {
      gate.giveBack(state, permits);
    }
  }

  /**
   * The refusal of a call whose argument {@link #admit} refused.
   *
   * @param argumentIndex the argument's position in the call
   * @param value the argument
   * @param refused what {@link #admit} returned
   * @param permits the call's permits
   * @param nowNanos the decision time
   * @return the exception, naming the refused value (an element for a collection)
   */
  RefusedException.PerValue refusal(
      int argumentIndex, Object value, long refused, int permits, long nowNanos) {
    Object elements = Elements.of(value);
    @Nullable Object element = elements == null ? value : Elements.get(elements, (int) (-refused - 1));
    Object culprit = Objects.requireNonNullElse(element, value);
    ValueState state = table.find(culprit);
    int threshold = state == null ? threshold(culprit) : state.threshold;
    long retry = gate.retryAfterNanos(state, threshold, permits, nowNanos);
    return new RefusedException.PerValue(resource, rule, argumentIndex, culprit, retry);
  }
}
