package dev.guard.redis;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Quota;
import dev.guard.spi.TokenService;
import io.lettuce.core.ScriptOutputType;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The budgets decided by the values script: the values of cluster per-value rules (each value's
 * buckets in the flow id's hash {@code :pv}, refill times in the sorted set {@code :pr}) and the
 * quotas of cluster flow rules (the same script on one constant field {@code =} of the keys
 * {@code :qv} and {@code :qr}).
 *
 * <p>Invariants: each request is one script call over two keys of one flow id (one hash slot),
 * always exact, in leased mode too. The arguments are {@code op, field, permits, maxValues, hint},
 * then three numbers per bucket ({@code limit, periodMs, capacity}), then the window time. Only a
 * quota's state is kept here ({@link QuotaStates}) and sent back as the hint, so Redis can
 * restore quotas whose keys it lost; a value's state is not (docs/CLUSTER.md, "Eviction").
 * Failures answer {@code FAILED} and are counted once, in {@link ScriptCalls}.
 */
final class ValueBudgets {

  private final ScriptCalls calls;
  private final QuotaStates quotaStates;

  ValueBudgets(ScriptCalls calls, QuotaStates quotaStates) {
    this.calls = calls;
    this.quotaStates = quotaStates;
  }

  TokenService.Result requestValue(PerValueRule rule, Object value, int permits) {
    return Answers.values(askValues("v", rule, value, permits));
  }

  void giveBackValue(PerValueRule rule, Object value, int permits) {
    askValues("b", rule, value, permits);
  }

  TokenService.Result requestQuota(FlowRule rule, int permits) {
    List<Object> answer = rule.quotas().isEmpty() ? null
        : run(rule.cluster(), ":qv", ":qr", permits, () -> quotaArgs("v", rule, permits));
    quotaStates.keep(flowIdOf(rule), answer);
    return Answers.values(answer);
  }

  void giveBackQuota(FlowRule rule, int permits) {
    if (!rule.quotas().isEmpty()) {
      quotaStates.keep(flowIdOf(rule), run(rule.cluster(), ":qv", ":qr", permits,
          () -> quotaArgs("b", rule, permits)));
    }
  }

  private static String flowIdOf(FlowRule rule) {
    ClusterMode mode = rule.cluster();
    return mode == null ? "" : mode.flowId();
  }

  private @Nullable List<Object> askValues(String op, PerValueRule rule, Object value,
      int permits) {
    return run(rule.cluster(), ":pv", ":pr", permits,
        () -> valueArgs(op, rule, value, permits));
  }

  /** Runs the values script on two keys of a flow id; null when not asked or failed. */
  private @Nullable List<Object> run(@Nullable ClusterMode mode, String valuesKey,
      String refillsKey, int permits, Supplier<String[]> args) {
    Connector.Link link = mode == null || permits <= 0 || calls.closed() ? null : calls.link();
    if (mode == null || link == null) {
      return null;
    }
    String prefix = calls.prefix(mode.flowId());
    try {
      return calls.run(link, Scripts.VALUES, ScriptOutputType.MULTI,
          new String[] {prefix + valuesKey, prefix + refillsKey}, args.get());
    } catch (RuntimeException failure) { // the arguments' own failure (a value's toString)
      calls.availability().failed();
      return null;
    }
  }

  private String[] quotaArgs(String op, FlowRule rule, int permits) {
    List<Quota> quotas = rule.quotas();
    String[] args = new String[6 + 3 * quotas.size()];
    args[0] = op;
    args[1] = "=";
    args[2] = Integer.toString(permits);
    args[3] = "1";
    args[4] = quotaStates.hint(flowIdOf(rule));
    for (int q = 0; q < quotas.size(); q++) {
      args[5 + 3 * q] = Integer.toString(quotas.get(q).limit());
      args[6 + 3 * q] = Long.toString(quotas.get(q).period().toMillis());
      args[7 + 3 * q] = Integer.toString(quotas.get(q).limit());
    }
    args[args.length - 1] = calls.windowTime();
    return args;
  }

  private String[] valueArgs(String op, PerValueRule rule, Object value, int permits) {
    List<Quota> quotas = rule.quotas();
    String[] args = new String[6 + 3 * (1 + quotas.size())];
    args[0] = op;
    args[1] = ValueFields.of(value);
    args[2] = Integer.toString(permits);
    args[3] = Integer.toString(rule.maxValues());
    args[4] = ""; // no hint: a value's state is not kept here (docs/CLUSTER.md, "Eviction")
    int threshold = rule.thresholdOf(value);
    args[5] = Integer.toString(threshold);
    args[6] = Long.toString(rule.period().toMillis());
    args[7] = Long.toString((long) threshold + rule.burst());
    for (int q = 0; q < quotas.size(); q++) {
      args[8 + 3 * q] = Integer.toString(quotas.get(q).limit());
      args[9 + 3 * q] = Long.toString(quotas.get(q).period().toMillis());
      args[10 + 3 * q] = Integer.toString(quotas.get(q).limit());
    }
    args[args.length - 1] = calls.windowTime();
    return args;
  }
}
