package dev.guard.engine.internal.pervalue;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Quota;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.quota.LimitBudget;
import dev.guard.spi.Cap;
import dev.guard.spi.TokenService;
import java.util.List;
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
 *
 * <p>A rule with quotas keeps one more token bucket per quota and value, each in a table of its
 * own: a value passes when the rule's bucket and every quota's bucket would admit it, and then
 * takes from each in turn; a take that still fails (a race) gives back the takes before it. A
 * cluster rule asks the engine's token service first ({@link #askShared}) and is decided here, by
 * these buckets, only when the service cannot decide and the rule falls back to the local limit.
 */
final class CompiledPerValueRule {

  private static final long NANOS_PER_MS = 1_000_000L;

  /** {@link #askShared}: the service granted every value of the argument. */
  static final Object GRANTED = new Object();

  /** {@link #askShared}: the service could not decide; decide locally (or pass). */
  static final Object FALL_BACK = new Object();

  final PerValueRule rule;
  final ValueGate gate;
  final ValueTable table;
  private final ValueGate[] quotaGates;
  private final ValueTable[] quotaTables;
  private final int[] quotaLimits;
  private final String resource;
  private final int index;
  private final int count;
  private final boolean exceptions;
  private final boolean shared;

  CompiledPerValueRule(String resource, PerValueRule rule, SlotContext engine) {
    this.resource = resource;
    this.rule = rule;
    this.index = rule.argumentIndex();
    this.count = rule.threshold();
    this.exceptions = !rule.exceptions().isEmpty();
    this.shared = rule.cluster() != null;
    this.gate = gateOf(rule);
    this.table = new ValueTable(gate, rule.maxValues(),
        forgotten -> engine.reportOverflow(Cap.VALUES, resource, forgotten));
    List<Quota> quotas = rule.quotas();
    this.quotaGates = new ValueGate[quotas.size()];
    this.quotaTables = new ValueTable[quotas.size()];
    this.quotaLimits = new int[quotas.size()];
    for (int q = 0; q < quotaGates.length; q++) {
      quotaGates[q] = new TokenBucketGate(quotas.get(q).period().toMillis(), 0);
      quotaTables[q] = new ValueTable(quotaGates[q], rule.maxValues(), forgotten -> {});
      quotaLimits[q] = quotas.get(q).limit();
    }
  }

  /** Whether the engine's token service decides this rule first. */
  boolean shared() {
    return shared;
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

  private ValueState quotaStateOf(int q, Object value, long nowNanos) {
    ValueTable quotaTable = quotaTables[q];
    ValueState state = quotaTable.find(value);
    if (state != null) {
      return state;
    }
    int limit = quotaLimits[q];
    return quotaTable.insert(value,
        new ValueState(limit, quotaGates[q].initialBits(limit, nowNanos)));
  }

  /** Whether every bucket of the value would admit the permits now; changes nothing. */
  private boolean admitsAll(Object value, int permits, long nowNanos) {
    ValueState state = table.find(value);
    int threshold = state == null ? threshold(value) : state.threshold;
    if (!gate.admits(state, threshold, permits, nowNanos)) {
      return false;
    }
    for (int q = 0; q < quotaGates.length; q++) {
      if (!quotaGates[q].admits(quotaTables[q].find(value), quotaLimits[q], permits, nowNanos)) {
        return false;
      }
    }
    return true;
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
      if (quotaGates.length > 0 && !admitsAll(value, permits, nowNanos)) {
        return -1;
      }
      return takeOne(value, permits, nowNanos);
    }
    int size = Elements.size(elements);
    for (int k = 0; k < size; k++) {
      Object element = Elements.get(elements, k);
      if (element != null && !admitsAll(element, permits, nowNanos)) {
        return -(k + 1L);
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

  /** Takes from the value's bucket and every quota's; refused (nothing kept) if any is short. */
  private long takeOne(Object value, int permits, long nowNanos) {
    ValueState state = stateOf(value, nowNanos);
    long taken;
    while ((taken = gate.take(state, permits, nowNanos)) == ValueGate.RETIRED) {
      state = stateOf(value, nowNanos);
    }
    if (taken < 0 || quotaGates.length == 0) {
      return taken;
    }
    for (int q = 0; q < quotaGates.length; q++) {
      long quota;
      ValueState held = quotaStateOf(q, value, nowNanos);
      while ((quota = quotaGates[q].take(held, permits, nowNanos)) == ValueGate.RETIRED) {
        held = quotaStateOf(q, value, nowNanos);
      }
      if (quota < 0) {
        gate.giveBack(state, permits);
        for (int back = 0; back < q; back++) {
          ValueState kept = quotaTables[back].find(value);
          if (kept != null) {
            quotaGates[back].giveBack(kept, permits);
          }
        }
        return ValueGate.REFUSED;
      }
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
    for (int q = 0; q < quotaGates.length; q++) {
      ValueState held = quotaTables[q].find(value);
      if (held != null) {
        quotaGates[q].giveBack(held, permits);
      }
    }
  }

  /**
   * Adds what this rule leaves a call whose argument is {@code value} (docs/BEHAVIOUR.md,
   * "Budget"): the value's token bucket, for a QPS rule that refuses at once, and each of its
   * quotas; read without changing anything. A cluster rule (its buckets are the service's), a
   * collection or array argument (no one value to tell of), a paced rate and a concurrency limit
   * add nothing.
   *
   * @param value the call's argument (non-null)
   * @param nowNanos engine time
   * @param into where the budgets go
   */
  void budgetsOf(Object value, long nowNanos, List<LimitBudget> into) {
    if (shared || Elements.of(value) != null) {
      return;
    }
    long nowMs = nowNanos / NANOS_PER_MS;
    if (gate instanceof TokenBucketGate bucket) {
      ValueState state = table.peek(value);
      int threshold = state == null ? threshold(value) : state.threshold;
      long max = (long) threshold + bucket.burst;
      long bits = state == null ? TokenBucketGate.pack(nowMs, max) : state.bits();
      into.add(LimitBudget.ofBucket(rule, null, threshold, max, bucket.periodMs, bits, nowMs));
    }
    for (int q = 0; q < quotaGates.length; q++) {
      Quota quota = rule.quotas().get(q);
      ValueState held = quotaTables[q].peek(value);
      int limit = quotaLimits[q];
      long bits = held == null ? TokenBucketGate.pack(nowMs, limit) : held.bits();
      into.add(LimitBudget.ofBucket(rule, quota, limit, limit, quota.period().toMillis(), bits,
          nowMs));
    }
  }

  /**
   * Asks the token service for a cluster rule's argument: every element of a collection in turn,
   * the granted ones given back when a later one is refused.
   *
   * @param service the engine's token service
   * @param argumentIndex the argument's position in the call
   * @param value the argument (non-null)
   * @param permits the call's permits
   * @return {@link #GRANTED}, {@link #FALL_BACK} (nothing kept), or the refusal (nothing kept)
   */
  Object askShared(TokenService service, int argumentIndex, Object value, int permits) {
    Object elements = Elements.of(value);
    if (elements == null) {
      return askOne(service, argumentIndex, value, permits);
    }
    int size = Elements.size(elements);
    for (int k = 0; k < size; k++) {
      Object element = Elements.get(elements, k);
      if (element != null) {
        Object answer = askOne(service, argumentIndex, element, permits);
        if (answer != GRANTED) {
          giveBackShared(service, elements, k, permits);
          return answer;
        }
      }
    }
    return GRANTED;
  }

  private Object askOne(TokenService service, int argumentIndex, Object value, int permits) {
    TokenService.Result result;
    try {
      result = service.requestValueToken(rule, value, permits);
    } catch (RuntimeException failed) {
      return FALL_BACK; // a failing service is a failure like any other
    }
    switch (result.status()) {
      case OK:
        return GRANTED;
      case REFUSED:
        long retry = result.waitMs() > 0 ? result.waitMs() * 1_000_000L : -1;
        return new RefusedException.PerValue(resource, rule, argumentIndex, value, retry);
      default:
        return FALL_BACK;
    }
  }

  /**
   * Gives back to the token service what {@link #askShared} was granted for an argument.
   *
   * @param service the engine's token service
   * @param value the argument, as granted
   * @param permits the call's permits
   */
  void giveBackShared(TokenService service, Object value, int permits) {
    Object elements = Elements.of(value);
    if (elements == null) {
      giveBackSharedOne(service, value, permits);
    } else {
      giveBackShared(service, elements, Elements.size(elements), permits);
    }
  }

  private void giveBackShared(TokenService service, Object elements, int upTo, int permits) {
    for (int k = 0; k < upTo; k++) {
      Object element = Elements.get(elements, k);
      if (element != null) {
        giveBackSharedOne(service, element, permits);
      }
    }
  }

  private void giveBackSharedOne(TokenService service, Object value, int permits) {
    try {
      service.giveBackValue(rule, value, permits);
    } catch (RuntimeException ignored) {
      // a failing service must not fail the call; the tokens stay taken
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
    long retry = quotaGates.length > 0 && gate.admits(state, threshold, permits, nowNanos) ? 0
        : gate.retryAfterNanos(state, threshold, permits, nowNanos);
    for (int q = 0; q < quotaGates.length && retry >= 0; q++) {
      ValueState held = quotaTables[q].find(culprit);
      if (!quotaGates[q].admits(held, quotaLimits[q], permits, nowNanos)) {
        long wait = quotaGates[q].retryAfterNanos(held, quotaLimits[q], permits, nowNanos);
        retry = wait < 0 ? -1 : Math.max(retry, wait);
      }
    }
    return new RefusedException.PerValue(resource, rule, argumentIndex, culprit, retry);
  }
}
