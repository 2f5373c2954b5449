package dev.guard.api.rule;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.internal.Checks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable flow-control rule: a QPS or concurrency limit on one resource, optionally scoped to
 * callers ({@code origin}), measured on a related resource or entrance ({@code strategy}), with
 * a QPS rate that may warm up ({@code warmUp}) and calls either refused or paced once the rate is
 * reached ({@code shaping}).
 *
 * <pre>{@code
 * FlowRule rule = FlowRule.qps("createOrder", 100)
 *     .withOrigin("checkout")
 *     .withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(10)))
 *     .withShaping(FlowRule.Shaping.PACING);
 * }</pre>
 *
 * <p>The constructor validates every field and throws {@link IllegalArgumentException} naming the
 * field and the value, so an invalid rule never reaches an engine.
 *
 * @param resource the protected resource; not blank
 * @param metric what {@code threshold} limits
 * @param threshold the threshold: calls per second for {@link FlowRule.Metric#QPS}, concurrent calls for
 *     {@link FlowRule.Metric#CONCURRENCY}; from 0 (refuses every call) to 10<sup>9</sup>
 * @param origin which callers the rule applies to: {@value #EVERY_ORIGIN} (everyone), {@value
 *     #OTHER_ORIGINS} (origins not named by another rule of the resource) or one origin name; blank
 *     means {@value #EVERY_ORIGIN}
 * @param strategy whose statistics are measured
 * @param reference the related resource for {@link FlowRule.Strategy#RELATED}, the entrance name for
 *     {@link FlowRule.Strategy#ENTRANCE}; null for {@link FlowRule.Strategy#DIRECT}
 * @param shaping refuse or pace once the rate is reached; only {@link FlowRule.Shaping#REFUSE}
 *     for concurrency
 * @param warmUp how the rate warms up; null for a constant rate (always null for concurrency)
 * @param maxQueueingTime the longest a paced call may wait; from zero (strict spacing: early calls
 *     are refused, none waits) to one day
 * @param cluster how the engine's token service decides the rule for a whole cluster; null for a
 *     rule decided by this instance alone. A cluster rule neither warms up nor paces ({@code
 *     warmUp} null, {@code shaping} {@link FlowRule.Shaping#REFUSE}); a QPS cluster rule is
 *     counted in the token service's shared window, a concurrency cluster rule holds the
 *     service's concurrency tokens
 * @param quotas further limits of the calls the rule applies to, each counted in fixed windows
 *     of its own period ({@link Quota}: "1,000 a minute and 50,000 a day"): a call passes only
 *     when the rule's threshold and every quota admit it, and then counts in all of them; a
 *     refused call counts in none (docs/BEHAVIOUR.md, "Quotas"). At most {@value
 *     Quota#MAX_PER_RULE}, only on a rule with metric QPS, strategy DIRECT, shaping REFUSE and
 *     no warm-up. A cluster rule shares its quotas through the token service ({@link
 *     dev.guard.spi.TokenService#requestQuota})
 */
public record FlowRule(
    String resource,
    FlowRule.Metric metric,
    double threshold,
    String origin,
    FlowRule.Strategy strategy,
    @Nullable String reference,
    FlowRule.Shaping shaping,
    @Nullable WarmUp warmUp,
    Duration maxQueueingTime,
    @Nullable ClusterMode cluster,
    List<Quota> quotas)
    implements Rule {

  /** The {@code origin} that applies a rule to every caller. */
  public static final String EVERY_ORIGIN = "default";

  /** The {@code origin} that applies a rule to origins no other rule of the resource names. */
  public static final String OTHER_ORIGINS = "other";

  /** The default longest wait of a paced call: 500 ms. */
  public static final Duration DEFAULT_MAX_QUEUEING_TIME = Duration.ofMillis(500);

  /**
   * Validates and normalises the fields.
   *
   * @param resource the protected resource
   * @param metric what {@code threshold} limits
   * @param threshold the threshold
   * @param origin which callers the rule applies to
   * @param strategy whose statistics are measured
   * @param reference the related resource or entrance
   * @param shaping refuse or pace once the rate is reached
   * @param warmUp how the rate warms up, or null
   * @param maxQueueingTime the longest a paced call may wait
   * @param cluster the cluster mode, or null
   * @param quotas further limits per period
   * @throws IllegalArgumentException if a field is invalid; the message names it and its value
   * @throws NullPointerException if a non-nullable field is null
   */
  public FlowRule {
    resource = Checks.notBlank("resource", resource);
    Objects.requireNonNull(metric, "metric");
    Checks.finiteNonNegative("threshold", threshold);
    Checks.atMost("threshold", threshold, RuleLimits.MAX_COUNT);
    threshold += 0.0; // -0 is 0, so equal thresholds make equal rules
    Objects.requireNonNull(origin, "origin");
    origin = origin.isBlank() ? EVERY_ORIGIN : origin.strip();
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(shaping, "shaping");
    Checks.notNegative("maxQueueingTime", maxQueueingTime);
    Checks.atMost("maxQueueingTime", maxQueueingTime, RuleLimits.MAX_DURATION);
    if (strategy == FlowRule.Strategy.DIRECT) {
      if (reference != null) {
        throw Checks.invalid(
            "reference", reference, "must be null for strategy DIRECT");
      }
    } else {
      reference = Checks.notBlank("reference", reference);
    }
    if (metric == FlowRule.Metric.CONCURRENCY && shaping != FlowRule.Shaping.REFUSE) {
      throw Checks.invalid(
          "shaping", shaping, "must be REFUSE for metric CONCURRENCY (shaping needs a rate)");
    }
    if (metric == FlowRule.Metric.CONCURRENCY && warmUp != null) {
      throw Checks.invalid(
          "warmUp", warmUp, "must be null for metric CONCURRENCY (warm-up needs a rate)");
    }
    if (cluster != null && warmUp != null) {
      throw Checks.invalid("warmUp", warmUp,
          "must be null for a cluster rule (the token service's shared window does not warm up)");
    }
    if (cluster != null && shaping != FlowRule.Shaping.REFUSE) {
      throw Checks.invalid("shaping", shaping,
          "must be REFUSE for a cluster rule (the token service's shared window does not pace)");
    }
    quotas = List.copyOf(Objects.requireNonNull(quotas, "quotas"));
    if (!quotas.isEmpty()) {
      checkQuotas(quotas, metric, strategy, shaping, warmUp);
      if (cluster != null && cluster.threshold() != ClusterMode.Threshold.GLOBAL) {
        throw Checks.invalid("cluster.threshold", cluster.threshold(),
            "must be GLOBAL for a rule with quotas (its quotas are shared, whatever the"
                + " instances)");
      }
    }
  }

  private static void checkQuotas(List<Quota> quotas, FlowRule.Metric metric,
      FlowRule.Strategy strategy, FlowRule.Shaping shaping, @Nullable WarmUp warmUp) {
    if (metric != FlowRule.Metric.QPS || strategy != FlowRule.Strategy.DIRECT
        || shaping != FlowRule.Shaping.REFUSE || warmUp != null) {
      throw Checks.invalid("quotas", quotas, "must be empty unless the rule has metric QPS,"
          + " strategy DIRECT, shaping REFUSE and no warm-up (was " + metric + ", " + strategy
          + ", " + shaping + (warmUp == null ? "" : ", with warm-up") + ")");
    }
    if (quotas.size() > Quota.MAX_PER_RULE) {
      throw Checks.invalid("quotas", quotas.size() + " quotas",
          "must be at most " + Quota.MAX_PER_RULE);
    }
  }


  /**
   * Creates a rule decided by this instance alone (no cluster mode, no quotas); see the canonical
   * constructor for the fields.
   *
   * @param resource the protected resource
   * @param metric what {@code threshold} limits
   * @param threshold the threshold
   * @param origin which callers the rule applies to
   * @param strategy whose statistics are measured
   * @param reference the related resource or entrance
   * @param shaping refuse or pace once the rate is reached
   * @param warmUp how the rate warms up, or null
   * @param maxQueueingTime the longest a paced call may wait
   * @throws IllegalArgumentException if a field is invalid; the message names it and its value
   */
  public FlowRule(
      String resource,
      FlowRule.Metric metric,
      double threshold,
      String origin,
      FlowRule.Strategy strategy,
      @Nullable String reference,
      FlowRule.Shaping shaping,
      @Nullable WarmUp warmUp,
      Duration maxQueueingTime) {
    this(resource, metric, threshold, origin, strategy, reference, shaping, warmUp,
        maxQueueingTime, null, List.of());
  }

  /**
   * Creates a fast-reject QPS rule for everyone, measured on the resource itself.
   *
   * @param resource the protected resource
   * @param threshold the most calls per second; {@code >= 0}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static FlowRule qps(String resource, double threshold) {
    return new FlowRule(
        resource,
        FlowRule.Metric.QPS,
        threshold,
        EVERY_ORIGIN,
        FlowRule.Strategy.DIRECT,
        null,
        FlowRule.Shaping.REFUSE,
        null,
        DEFAULT_MAX_QUEUEING_TIME);
  }

  /**
   * Creates a concurrency rule for everyone, measured on the resource itself.
   *
   * @param resource the protected resource
   * @param threshold the most calls running at once; {@code >= 0}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static FlowRule concurrency(String resource, double threshold) {
    return qps(resource, threshold).withMetric(FlowRule.Metric.CONCURRENCY);
  }

  /**
   * Returns a copy with another metric.
   *
   * @param newMetric the metric
   * @return the new rule
   */
  public FlowRule withMetric(FlowRule.Metric newMetric) {
    return new FlowRule(resource, newMetric, threshold, origin, strategy, reference, shaping,
        warmUp, maxQueueingTime, cluster, quotas);
  }

  /**
   * Returns a copy with another threshold.
   *
   * @param newThreshold the threshold; {@code >= 0}
   * @return the new rule
   */
  public FlowRule withThreshold(double newThreshold) {
    return new FlowRule(resource, metric, newThreshold, origin, strategy, reference, shaping,
        warmUp, maxQueueingTime, cluster, quotas);
  }

  /**
   * Returns a copy that applies to other callers.
   *
   * @param newOrigin {@value #EVERY_ORIGIN}, {@value #OTHER_ORIGINS} or an origin name
   * @return the new rule
   */
  public FlowRule withOrigin(String newOrigin) {
    return new FlowRule(resource, metric, threshold, newOrigin, strategy, reference, shaping,
        warmUp, maxQueueingTime, cluster, quotas);
  }

  /**
   * Returns a copy with another strategy.
   *
   * @param newStrategy the strategy
   * @param newReference the related resource or entrance; null for {@link FlowRule.Strategy#DIRECT}
   * @return the new rule
   */
  public FlowRule withStrategy(FlowRule.Strategy newStrategy, @Nullable String newReference) {
    return new FlowRule(resource, metric, threshold, origin, newStrategy, newReference, shaping,
        warmUp, maxQueueingTime, cluster, quotas);
  }

  /**
   * Returns a copy with another control behaviour.
   *
   * @param newShaping the behaviour
   * @return the new rule
   */
  public FlowRule withShaping(FlowRule.Shaping newShaping) {
    return new FlowRule(resource, metric, threshold, origin, strategy, reference, newShaping,
        warmUp, maxQueueingTime, cluster, quotas);
  }

  /**
   * Returns a copy whose rate warms up (the behaviour is unchanged).
   *
   * @param newWarmUp the warm-up; null for a constant rate
   * @return the new rule
   */
  public FlowRule withWarmUp(@Nullable WarmUp newWarmUp) {
    return new FlowRule(resource, metric, threshold, origin, strategy, reference, shaping,
        newWarmUp, maxQueueingTime, cluster, quotas);
  }

  /**
   * Returns a copy whose rate warms up over {@code newPeriod} with {@code newColdFactor} (the
   * behaviour is unchanged).
   *
   * @param newPeriod the warm-up period; positive
   * @param newColdFactor the cold factor; greater than 1
   * @return the new rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public FlowRule withWarmUp(Duration newPeriod, int newColdFactor) {
    return new FlowRule(resource, metric, threshold, origin, strategy, reference, shaping,
        new FlowRule.WarmUp(newPeriod, newColdFactor), maxQueueingTime, cluster, quotas);
  }

  /**
   * Returns a copy with another longest queueing time (the behaviour is unchanged).
   *
   * @param newMaxQueueingTime the bound; zero or positive
   * @return the new rule
   */
  public FlowRule withMaxQueueingTime(Duration newMaxQueueingTime) {
    return new FlowRule(resource, metric, threshold, origin, strategy, reference, shaping,
        warmUp, newMaxQueueingTime, cluster, quotas);
  }

  /**
   * Returns a copy decided by the engine's token service for a whole cluster, or by this instance
   * alone ({@code null}).
   *
   * @param newCluster the cluster mode; null for a local rule
   * @return the new rule
   * @throws IllegalArgumentException if the rule warms up or paces
   */
  public FlowRule withCluster(@Nullable ClusterMode newCluster) {
    return new FlowRule(resource, metric, threshold, origin, strategy, reference, shaping,
        warmUp, maxQueueingTime, newCluster, quotas);
  }

  /**
   * Returns a copy with one more quota: besides its threshold per second, the calls the rule
   * applies to may number at most {@code limit} per {@code period} ({@code FlowRule.qps("api",
   * 100).withQuota(1_000, Duration.ofMinutes(1)).withQuota(50_000, Duration.ofDays(1))}).
   *
   * @param limit the calls per period; from 0 to {@value Quota#MAX_LIMIT}
   * @param period whole milliseconds, from 1 ms to one day
   * @return the new rule
   * @throws IllegalArgumentException if a value is invalid, the rule cannot carry quotas (see
   *     {@link #quotas()}), or it has {@value Quota#MAX_PER_RULE} quotas already
   */
  public FlowRule withQuota(int limit, Duration period) {
    List<Quota> more = new ArrayList<>(quotas);
    more.add(new Quota(limit, period));
    return new FlowRule(resource, metric, threshold, origin, strategy, reference, shaping,
        warmUp, maxQueueingTime, cluster, more);
  }

  /**
   * Returns a copy with other quotas.
   *
   * @param newQuotas the quotas; empty for none
   * @return the new rule
   * @throws IllegalArgumentException if the rule cannot carry them (see {@link #quotas()})
   */
  public FlowRule withQuotas(List<Quota> newQuotas) {
    return new FlowRule(resource, metric, threshold, origin, strategy, reference, shaping,
        warmUp, maxQueueingTime, cluster, newQuotas);
  }

  /** What a flow rule's {@code threshold} limits. */
  public enum Metric {
    /** Passed calls per second, measured over the engine's second-level window. */
    QPS,
    /** Calls running at the same time (the live concurrency gauge). */
    CONCURRENCY
  }

  /** Whose statistics a flow rule measures. */
  public enum Strategy {
    /** The protected resource itself (or the caller's origin node, per {@code origin}). */
    DIRECT,
    /** Another resource, named by {@code reference}: limit this one when that one is busy. */
    RELATED,
    /**
     * Only calls made under the context (entrance) named by {@code reference}, measured on this
     * resource's node for that context.
     */
    ENTRANCE
  }

  /**
   * How a QPS flow rule admits calls once its rate is reached. The rate itself is the rule's threshold,
   * or a warm-up rate when the rule has a {@link FlowRule.WarmUp}: each behaviour works with either.
   */
  public enum Shaping {
    /** Refuse at once when the rate is reached. */
    REFUSE,
    /** Space admitted calls {@code 1 / rate} seconds apart, queueing up to a bound. */
    PACING
  }

  /**
   * The warm-up of a QPS flow rule: a cold resource admits {@code threshold / coldFactor} calls
   * per second, climbing to {@code threshold} over about {@code period} of traffic, and cools down again
   * when traffic stays below the cold rate.
   *
   * <pre>{@code
   * FlowRule rule = FlowRule.qps("createOrder", 100).withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(10)));
   * }</pre>
   *
   * @param period how long full traffic takes to warm a cold resource; positive, at most one day
   * @param coldFactor the cold rate is {@code count / coldFactor}; from 2 to 100
   */
  public record WarmUp(Duration period, int coldFactor) {

    /** The default cold factor: the cold rate is a third of the count. */
    public static final int DEFAULT_COLD_FACTOR = 3;

    /**
     * Validates the fields.
     *
     * @param period the warm-up period
     * @param coldFactor the cold factor
     * @throws IllegalArgumentException if a field is invalid; the message names it and its value
     */
    public WarmUp {
      Checks.positive("warmUpPeriod", period);
      Checks.atMost("warmUpPeriod", period, RuleLimits.MAX_DURATION);
      if (coldFactor <= 1) {
        throw Checks.invalid("coldFactor", coldFactor, "must be > 1");
      }
      Checks.atMost("coldFactor", coldFactor, RuleLimits.MAX_COLD_FACTOR);
    }

    /**
     * Creates a warm-up with the default cold factor 3.
     *
     * @param period the warm-up period; positive
     * @return the warm-up
     */
    public static FlowRule.WarmUp of(Duration period) {
      return new FlowRule.WarmUp(period, DEFAULT_COLD_FACTOR);
    }
  }
}
