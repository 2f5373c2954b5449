package dev.guard.api.rule;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.internal.Checks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable per-value rule: limits the calls of a resource per value of one argument (per
 * user id, per tenant, per SKU), each value independently.
 *
 * <pre>{@code
 * PerValueRule perUser = PerValueRule.qps("loadCart", 0, 20)   // argument 0, 20 per second
 *     .withBurst(10)                                             // each value may bank 10 more
 *     .withException("vip-7", 500);                              // one value with its own limit
 * }</pre>
 *
 * <p>Grades and behaviours (exact rules in {@code docs/BEHAVIOUR.md}, "Per-value limits"):
 *
 * <ul>
 *   <li>{@link FlowRule.Metric#QPS} with {@link FlowRule.Shaping#REFUSE}: a token bucket per value holding
 *       {@code threshold + burst} tokens, refilled by {@code threshold} per {@code period} once a full
 *       period has passed since the last refill.
 *   <li>{@link FlowRule.Metric#QPS} with {@link FlowRule.Shaping#PACING}: each value's calls are spaced
 *       {@code period / threshold} apart; a call that would wait longer than {@code maxQueueingTime}
 *       is refused.
 *   <li>{@link FlowRule.Metric#CONCURRENCY}: at most {@code threshold} calls per value run at once.
 * </ul>
 *
 * <p>The constructor rejects every combination the engine would not honour (a burst with pacing or
 * concurrency, a queueing time without pacing, an exception value that can
 * never match {@code valueType}), with an {@link IllegalArgumentException} naming the field and
 * the value.
 *
 * @param resource the protected resource; not blank
 * @param argumentIndex which argument of a call holds the value: 0 is the first; a negative index
 *     counts from the end of each call's arguments (−1 is the last), resolved per call; a call
 *     without that argument passes. From −255 to 255
 * @param metric {@link FlowRule.Metric#QPS} (calls per period) or {@link FlowRule.Metric#CONCURRENCY} (calls
 *     running at once), per value
 * @param threshold the threshold of each value without an exception; {@code >= 0} (0 refuses every
 *     call that has a value)
 * @param burst extra tokens a value may bank on top of {@code threshold}; {@code >= 0}, and 0 unless
 *     the rule is a QPS token bucket
 * @param period the token period of a QPS rule: {@code threshold} tokens per period; whole
 *     milliseconds, from 1 ms to {@link #MAX_PERIOD}; {@link #DEFAULT_PERIOD} for concurrency
 * @param shaping {@link FlowRule.Shaping#REFUSE} or (QPS only) {@link FlowRule.Shaping#PACING}
 * @param maxQueueingTime the longest a paced call may wait; from zero to one day, and zero unless the behaviour is pacing (zero means strict spacing: an early call is refused, none waits)
 * @param exceptions values with their own threshold, matched with {@code equals}, so each must be
 *     of the argument's runtime type ({@code 1} as an {@code Integer} never matches an argument
 *     {@code 1L}), and a number must be finite; thresholds {@code >= 0}
 * @param valueType the runtime type of the values; every exception value must be an instance of
 *     it. {@code Object.class} when unknown
 * @param maxValues how many values the engine remembers for this rule; from 2 to 10,000,000. When a new
 *     value does not fit, the values used least recently are forgotten and start over as if never
 *     seen (a full bucket). A cluster rule's token service remembers at most as many per flow id
 * @param quotas further limits of every value, each a bucket of its own ({@link
 *     Quota}): a call passes only when the rule's bucket and every quota's bucket have
 *     its permits, and then takes them from all of them; a refused call takes from none. At most
 *     {@value #MAX_QUOTAS}, only on a QPS token bucket (metric QPS, shaping REFUSE)
 * @param cluster how the engine's token service shares each value's buckets between instances;
 *     null for a rule decided by this instance alone. Only on a QPS token bucket, with a {@link
 *     ClusterMode.Threshold#GLOBAL} threshold and the mode's default window, buckets and lease
 *     time (a per-value rule's own period and quotas are its windows)
 */
public record PerValueRule(
    String resource,
    int argumentIndex,
    FlowRule.Metric metric,
    int threshold,
    int burst,
    Duration period,
    FlowRule.Shaping shaping,
    Duration maxQueueingTime,
    Map<Object, Integer> exceptions,
    Class<?> valueType,
    int maxValues,
    List<Quota> quotas,
    @Nullable ClusterMode cluster)
    implements Rule {

  /** The default token period: one second. */
  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);

  /** The longest token period: one day (one day). */
  public static final Duration MAX_PERIOD = RuleLimits.MAX_DURATION;

  /** The most tokens a value can hold: {@code threshold + burst} (and any exception threshold + burst). */
  public static final int MAX_TOKENS = (1 << 24) - 1;

  /** The values remembered per rule for every started second of the period (at most 200,000). */
  public static final int VALUES_PER_SECOND = 4000;

  /** The most values remembered by default, whatever the period. */
  public static final int MAX_DEFAULT_VALUES = 200_000;

  /** The most quotas a rule may have besides its own threshold. */
  public static final int MAX_QUOTAS = Quota.MAX_PER_RULE;

  private static final int MAX_ARGUMENT_INDEX = RuleLimits.MAX_ARGUMENT_INDEX;

  /**
   * Validates the fields and copies the exceptions.
   *
   * @param resource the protected resource
   * @param argumentIndex which argument holds the value; negative counts from the end
   * @param metric calls per period or calls running at once, per value
   * @param threshold the threshold of values without an exception
   * @param burst extra tokens a value may bank
   * @param period the token period
   * @param shaping refuse or pace
   * @param maxQueueingTime the longest a paced call may wait
   * @param exceptions values with their own threshold
   * @param valueType the runtime type of the values
   * @param maxValues how many values are remembered
   * @param quotas further limits of every value
   * @param cluster the cluster mode, or null
   * @throws IllegalArgumentException if a field is invalid or fields do not fit together; the
   *     message names the field and its value
   * @throws NullPointerException if a field, an exception value or threshold is null
   */
  public PerValueRule {
    resource = Checks.notBlank("resource", resource);
    if (argumentIndex < -MAX_ARGUMENT_INDEX || argumentIndex > MAX_ARGUMENT_INDEX) {
      throw Checks.invalid("argumentIndex", argumentIndex,
          "must be from -" + MAX_ARGUMENT_INDEX + " to " + MAX_ARGUMENT_INDEX);
    }
    Objects.requireNonNull(metric, "metric");
    Checks.nonNegative("threshold", threshold);
    Checks.nonNegative("burst", burst);
    checkPeriod(period);
    Objects.requireNonNull(shaping, "shaping");
    Checks.notNegative("maxQueueingTime", maxQueueingTime);
    Checks.atMost("maxQueueingTime", maxQueueingTime, RuleLimits.MAX_DURATION);
    Objects.requireNonNull(valueType, "valueType");
    exceptions = Map.copyOf(Objects.requireNonNull(exceptions, "exceptions"));
    if (maxValues < 2) {
      throw Checks.invalid("maxValues", maxValues, "must be >= 2");
    }
    Checks.atMost("maxValues", maxValues, RuleLimits.MAX_VALUES);
    checkShape(metric, burst, period, shaping, maxQueueingTime);
    checkThreshold("threshold", threshold, burst);
    for (Map.Entry<Object, Integer> exception : exceptions.entrySet()) {
      checkException(exception.getKey(), exception.getValue(), burst, valueType);
    }
    quotas = List.copyOf(Objects.requireNonNull(quotas, "quotas"));
    boolean bucket = metric == FlowRule.Metric.QPS && shaping == FlowRule.Shaping.REFUSE;
    if (!quotas.isEmpty() && !bucket) {
      throw Checks.invalid("quotas", quotas,
          "must be empty unless the rule is a QPS token bucket (metric QPS, shaping REFUSE)");
    }
    if (quotas.size() > MAX_QUOTAS) {
      throw Checks.invalid("quotas", quotas.size() + " quotas", "must be at most " + MAX_QUOTAS);
    }
    if (cluster != null) {
      checkCluster(cluster, bucket);
    }
  }



  /**
   * Creates a per-value QPS rule: a token bucket of {@code threshold} calls per second for each value
   * of the argument, no burst, no exceptions.
   *
   * <pre>{@code
   * PerValueRule rule = PerValueRule.qps("search", 1, 5);   // argument 1, 5 per second per value
   * }</pre>
   *
   * @param resource the protected resource
   * @param argumentIndex the argument; negative counts from the end
   * @param threshold calls per second per value; {@code >= 0}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static PerValueRule qps(String resource, int argumentIndex, int threshold) {
    return new PerValueRule(resource, argumentIndex, FlowRule.Metric.QPS, threshold, 0, DEFAULT_PERIOD,
        FlowRule.Shaping.REFUSE, Duration.ZERO, Map.of(), Object.class,
        defaultMaxValues(DEFAULT_PERIOD), List.of(), null);
  }

  /**
   * Creates a per-value concurrency rule: at most {@code limit} calls per value of the argument run
   * at once.
   *
   * <pre>{@code
   * PerValueRule rule = PerValueRule.concurrency("export", 0, 2);   // 2 exports per tenant
   * }</pre>
   *
   * @param resource the protected resource
   * @param argumentIndex the argument; negative counts from the end
   * @param limit calls running at once per value; {@code >= 0}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static PerValueRule concurrency(String resource, int argumentIndex, int limit) {
    return qps(resource, argumentIndex, limit).withMetric(FlowRule.Metric.CONCURRENCY);
  }

  /**
   * The default {@code maxValues} for a period: {@value #VALUES_PER_SECOND} per started second,
   * at most {@value #MAX_DEFAULT_VALUES}.
   *
   * @param period the token period
   * @return the default bound
   */
  public static int defaultMaxValues(Duration period) {
    long cap = MAX_DEFAULT_VALUES / VALUES_PER_SECOND;
    long seconds = period.getSeconds() >= cap ? cap
        : Math.max(1, period.getSeconds() + (period.getNano() > 0 ? 1 : 0));
    return (int) Math.min(MAX_DEFAULT_VALUES, VALUES_PER_SECOND * seconds);
  }

  /**
   * Returns a copy with another metric.
   *
   * @param newMetric the metric
   * @return the new rule
   */
  public PerValueRule withMetric(FlowRule.Metric newMetric) {
    return new PerValueRule(resource, argumentIndex, newMetric, threshold, burst, period, shaping,
        maxQueueingTime, exceptions, valueType, maxValues, quotas, cluster);
  }

  /**
   * Returns a copy with another threshold.
   *
   * @param newThreshold the threshold of values without an exception; {@code >= 0}
   * @return the new rule
   */
  public PerValueRule withThreshold(int newThreshold) {
    return new PerValueRule(resource, argumentIndex, metric, newThreshold, burst, period, shaping,
        maxQueueingTime, exceptions, valueType, maxValues, quotas, cluster);
  }

  /**
   * Returns a copy with another burst (QPS token bucket only).
   *
   * @param newBurst extra tokens per value; {@code >= 0}
   * @return the new rule
   */
  public PerValueRule withBurst(int newBurst) {
    return new PerValueRule(resource, argumentIndex, metric, threshold, newBurst, period, shaping,
        maxQueueingTime, exceptions, valueType, maxValues, quotas, cluster);
  }

  /**
   * Returns a copy with another token period. When {@code maxValues} is the default of the old
   * period it becomes the default of the new one; a bound set explicitly is kept.
   *
   * @param newPeriod the period; whole milliseconds from 1 ms to one day
   * @return the new rule
   */
  public PerValueRule withPeriod(Duration newPeriod) {
    checkPeriod(newPeriod);
    int values = maxValues == defaultMaxValues(period) ? defaultMaxValues(newPeriod) : maxValues;
    return new PerValueRule(resource, argumentIndex, metric, threshold, burst, newPeriod, shaping,
        maxQueueingTime, exceptions, valueType, values, quotas, cluster);
  }

  /**
   * Returns a copy that paces each value's calls {@code period / threshold} apart, queueing a call at
   * most {@code newMaxQueueingTime} ({@link FlowRule.Shaping#PACING}).
   *
   * @param newMaxQueueingTime the longest wait; zero (strict spacing) or positive
   * @return the new rule
   */
  public PerValueRule withPacing(Duration newMaxQueueingTime) {
    return new PerValueRule(resource, argumentIndex, metric, threshold, burst, period,
        FlowRule.Shaping.PACING, newMaxQueueingTime, exceptions, valueType, maxValues, quotas,
        cluster);
  }

  /**
   * Returns a copy in which {@code value} has its own threshold (replacing an earlier one for an
   * equal value).
   *
   * @param value the value; of the argument's runtime type
   * @param valueThreshold its threshold; {@code >= 0} (0 refuses the value)
   * @return the new rule
   */
  public PerValueRule withException(Object value, int valueThreshold) {
    Objects.requireNonNull(value, "value");
    Map<Object, Integer> more = new HashMap<>(exceptions);
    more.put(value, valueThreshold);
    return new PerValueRule(resource, argumentIndex, metric, threshold, burst, period, shaping,
        maxQueueingTime, more, valueType, maxValues, quotas, cluster);
  }

  /**
   * Returns a copy that declares the runtime type of the values, so that exception values of
   * another type are rejected when the rule is built.
   *
   * @param newValueType the values' type
   * @return the new rule
   */
  public PerValueRule withValueType(Class<?> newValueType) {
    return new PerValueRule(resource, argumentIndex, metric, threshold, burst, period, shaping,
        maxQueueingTime, exceptions, newValueType, maxValues, quotas, cluster);
  }

  /**
   * Returns a copy that remembers at most {@code newMaxValues} values.
   *
   * @param newMaxValues the bound; {@code >= 2}
   * @return the new rule
   */
  public PerValueRule withMaxValues(int newMaxValues) {
    return new PerValueRule(resource, argumentIndex, metric, threshold, burst, period, shaping,
        maxQueueingTime, exceptions, valueType, newMaxValues, quotas, cluster);
  }

  /**
   * Returns a copy with one more quota: besides its threshold per period, every value may make
   * at most {@code limit} calls per {@code quotaPeriod} ({@code PerValueRule.qps("api", 0, 100)
   * .withPeriod(Duration.ofMinutes(1)).withQuota(10_000, Duration.ofDays(1))}).
   *
   * @param limit the calls per {@code quotaPeriod} of every value; from 0 to {@link #MAX_TOKENS}
   * @param quotaPeriod whole milliseconds, from 1 ms to one day
   * @return the new rule
   * @throws IllegalArgumentException if a value is invalid, the rule is no QPS token bucket, or
   *     it has {@value #MAX_QUOTAS} quotas already
   */
  public PerValueRule withQuota(int limit, Duration quotaPeriod) {
    List<Quota> more = new ArrayList<>(quotas);
    more.add(new Quota(limit, quotaPeriod));
    return new PerValueRule(resource, argumentIndex, metric, threshold, burst, period, shaping,
        maxQueueingTime, exceptions, valueType, maxValues, more, cluster);
  }

  /**
   * Returns a copy whose values' buckets the engine's token service shares between every instance
   * that uses the same {@code flowId} ({@code null}: decided by this instance alone).
   *
   * @param newCluster the cluster mode ({@link ClusterMode#global(String)}, optionally {@link
   *     ClusterMode#withFallbackToLocal(boolean)}), or null
   * @return the new rule
   * @throws IllegalArgumentException if the rule is no QPS token bucket, or the mode is per
   *     instance or sets a window, buckets or lease time
   */
  public PerValueRule withCluster(@Nullable ClusterMode newCluster) {
    return new PerValueRule(resource, argumentIndex, metric, threshold, burst, period, shaping,
        maxQueueingTime, exceptions, valueType, maxValues, quotas, newCluster);
  }

  /**
   * The threshold of a value: its exception threshold, or {@code threshold}.
   *
   * @param value a value of the argument
   * @return its threshold
   */
  public int thresholdOf(Object value) {
    Integer own = exceptions.get(value);
    return own == null ? threshold : own;
  }

  private static void checkCluster(ClusterMode cluster, boolean bucket) {
    if (!bucket) {
      throw Checks.invalid("cluster", cluster.flowId(),
          "must be null unless the rule is a QPS token bucket (metric QPS, shaping REFUSE): a"
              + " token service shares buckets, not pacing schedules or running calls");
    }
    if (cluster.threshold() != ClusterMode.Threshold.GLOBAL) {
      throw Checks.invalid("cluster.threshold", cluster.threshold(),
          "must be GLOBAL for a per-value rule (each value's budget is shared, whatever the"
              + " instances)");
    }
    if (!cluster.window().equals(ClusterMode.DEFAULT_WINDOW)
        || cluster.buckets() != ClusterMode.DEFAULT_BUCKETS
        || !cluster.leaseTime().equals(ClusterMode.DEFAULT_LEASE_TIME)) {
      throw Checks.invalid("cluster", cluster.window() + " in " + cluster.buckets() + " buckets",
          "must keep the default window, buckets and lease time for a per-value rule (its period"
              + " and quotas are its windows)");
    }
  }

  private static void checkPeriod(Duration period) {
    Checks.positive("period", period);
    if (period.compareTo(MAX_PERIOD) > 0 || period.getNano() % 1_000_000 != 0) {
      throw Checks.invalid("period", period, "must be whole milliseconds from 1 ms to 1 day");
    }
  }

  private static void checkShape(FlowRule.Metric metric, int burst, Duration period,
      FlowRule.Shaping shaping, Duration maxQueueingTime) {
    if (metric == FlowRule.Metric.CONCURRENCY) {
      if (shaping != FlowRule.Shaping.REFUSE) {
        throw Checks.invalid("shaping", shaping, "must be REFUSE for metric CONCURRENCY");
      }
      if (!period.equals(DEFAULT_PERIOD)) {
        throw Checks.invalid("period", period,
            "must be the default " + DEFAULT_PERIOD + " for metric CONCURRENCY (it has no period)");
      }
    }
    if (burst != 0 && (metric != FlowRule.Metric.QPS || shaping != FlowRule.Shaping.REFUSE)) {
      throw Checks.invalid("burst", burst,
          "must be 0 unless the rule is a QPS token bucket (metric QPS, shaping REFUSE)");
    }
    if (!maxQueueingTime.isZero() && shaping != FlowRule.Shaping.PACING) {
      throw Checks.invalid("maxQueueingTime", maxQueueingTime, "must be zero unless shaping is PACING");
    }
  }

  private static void checkThreshold(String field, int threshold, int burst) {
    if ((long) threshold + burst > MAX_TOKENS) {
      throw Checks.invalid(field, threshold,
          "plus burst " + burst + " must be at most " + MAX_TOKENS);
    }
  }

  private static void checkException(Object value, Integer threshold, int burst,
      Class<?> valueType) {
    Objects.requireNonNull(threshold, "threshold");
    Checks.nonNegative("exceptions[" + value + "]", threshold);
    checkThreshold("exceptions[" + value + "]", threshold, burst);
    if (value instanceof Double number && !Double.isFinite(number)
        || value instanceof Float single && !Float.isFinite(single)) {
      throw Checks.invalid("exceptions", value, "must hold finite numbers");
    }
    if (!valueType.isInstance(value)) {
      throw Checks.invalid("exceptions", value + " (" + value.getClass().getName() + ")",
          "must hold values of valueType " + valueType.getName()
              + ": a value matches only arguments equal to it, of its own runtime type");
    }
  }
}
