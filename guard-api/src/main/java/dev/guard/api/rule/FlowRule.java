package dev.guard.api.rule;

import dev.guard.api.Checks;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable flow-control rule: a QPS or concurrency limit on one resource, optionally scoped to
 * callers ({@code limitApp}), measured on a related resource or entrance ({@code strategy}), with
 * a QPS rate that may warm up ({@code warmUp}) and calls either refused or paced once the rate is
 * reached ({@code behavior}).
 *
 * <pre>{@code
 * FlowRule rule = FlowRule.qps("createOrder", 100)
 *     .withLimitApp("checkout")
 *     .withWarmUp(WarmUp.of(Duration.ofSeconds(10)))
 *     .withBehavior(ControlBehavior.PACING);
 * }</pre>
 *
 * <p>The constructor validates every field and throws {@link IllegalArgumentException} naming the
 * field and the value, so an invalid rule never reaches an engine.
 *
 * @param resource the protected resource; not blank
 * @param grade what {@code count} limits
 * @param count the threshold: calls per second for {@link FlowGrade#QPS}, concurrent calls for
 *     {@link FlowGrade#CONCURRENCY}; from 0 (refuses every call) to {@link RuleLimits#MAX_COUNT}
 * @param limitApp which callers the rule applies to: {@value #DEFAULT_APP} (everyone), {@value
 *     #OTHER_APP} (origins not named by another rule of the resource) or one origin name; blank
 *     means {@value #DEFAULT_APP}
 * @param strategy whose statistics are measured
 * @param refResource the related resource for {@link FlowStrategy#RELATE}, the entrance name for
 *     {@link FlowStrategy#CHAIN}; null for {@link FlowStrategy#DIRECT}
 * @param behavior refuse or pace once the rate is reached; only {@link ControlBehavior#REJECT}
 *     for concurrency
 * @param warmUp how the rate warms up; null for a constant rate (always null for concurrency)
 * @param maxQueueingTime the longest a paced call may wait; from zero (strict spacing: early calls
 *     are refused, none waits) to {@link RuleLimits#MAX_DURATION}
 * @param cluster how the engine's token service decides the rule for a whole cluster; null for a
 *     rule decided by this instance alone. A cluster rule neither warms up nor paces ({@code
 *     warmUp} null, {@code behavior} {@link ControlBehavior#REJECT}); a QPS cluster rule is
 *     counted in the token service's shared window, a concurrency cluster rule holds the
 *     service's concurrency tokens
 */
public record FlowRule(
    String resource,
    FlowGrade grade,
    double count,
    String limitApp,
    FlowStrategy strategy,
    @Nullable String refResource,
    ControlBehavior behavior,
    @Nullable WarmUp warmUp,
    Duration maxQueueingTime,
    @Nullable ClusterMode cluster)
    implements Rule {

  /** The {@code limitApp} that applies a rule to every caller. */
  public static final String DEFAULT_APP = "default";

  /** The {@code limitApp} that applies a rule to origins no other rule of the resource names. */
  public static final String OTHER_APP = "other";

  /** The default longest wait of a paced call: 500 ms. */
  public static final Duration DEFAULT_MAX_QUEUEING_TIME = Duration.ofMillis(500);

  /**
   * Validates and normalises the fields.
   *
   * @param resource the protected resource
   * @param grade what {@code count} limits
   * @param count the threshold
   * @param limitApp which callers the rule applies to
   * @param strategy whose statistics are measured
   * @param refResource the related resource or entrance
   * @param behavior refuse or pace once the rate is reached
   * @param warmUp how the rate warms up, or null
   * @param maxQueueingTime the longest a paced call may wait
   * @param cluster the cluster mode, or null
   * @throws IllegalArgumentException if a field is invalid; the message names it and its value
   * @throws NullPointerException if a non-nullable field is null
   */
  public FlowRule {
    resource = Checks.notBlank("resource", resource);
    Objects.requireNonNull(grade, "grade");
    Checks.finiteNonNegative("count", count);
    Checks.atMost("count", count, RuleLimits.MAX_COUNT);
    count += 0.0; // -0 is 0, so equal thresholds make equal rules
    Objects.requireNonNull(limitApp, "limitApp");
    limitApp = limitApp.isBlank() ? DEFAULT_APP : limitApp.strip();
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(behavior, "behavior");
    Checks.notNegative("maxQueueingTime", maxQueueingTime);
    Checks.atMost("maxQueueingTime", maxQueueingTime, RuleLimits.MAX_DURATION);
    if (strategy == FlowStrategy.DIRECT) {
      if (refResource != null) {
        throw Checks.invalid(
            "refResource", refResource, "must be null for strategy DIRECT");
      }
    } else {
      refResource = Checks.notBlank("refResource", refResource);
    }
    if (grade == FlowGrade.CONCURRENCY && behavior != ControlBehavior.REJECT) {
      throw Checks.invalid(
          "behavior", behavior, "must be REJECT for grade CONCURRENCY (shaping needs a rate)");
    }
    if (grade == FlowGrade.CONCURRENCY && warmUp != null) {
      throw Checks.invalid(
          "warmUp", warmUp, "must be null for grade CONCURRENCY (warm-up needs a rate)");
    }
    if (cluster != null && warmUp != null) {
      throw Checks.invalid("warmUp", warmUp,
          "must be null for a cluster rule (the token service's shared window does not warm up)");
    }
    if (cluster != null && behavior != ControlBehavior.REJECT) {
      throw Checks.invalid("behavior", behavior,
          "must be REJECT for a cluster rule (the token service's shared window does not pace)");
    }
  }

  /**
   * Creates a rule decided by this instance alone (no cluster mode); see the canonical
   * constructor for the fields.
   *
   * @param resource the protected resource
   * @param grade what {@code count} limits
   * @param count the threshold
   * @param limitApp which callers the rule applies to
   * @param strategy whose statistics are measured
   * @param refResource the related resource or entrance
   * @param behavior refuse or pace once the rate is reached
   * @param warmUp how the rate warms up, or null
   * @param maxQueueingTime the longest a paced call may wait
   * @throws IllegalArgumentException if a field is invalid; the message names it and its value
   */
  public FlowRule(
      String resource,
      FlowGrade grade,
      double count,
      String limitApp,
      FlowStrategy strategy,
      @Nullable String refResource,
      ControlBehavior behavior,
      @Nullable WarmUp warmUp,
      Duration maxQueueingTime) {
    this(resource, grade, count, limitApp, strategy, refResource, behavior, warmUp,
        maxQueueingTime, null);
  }

  /**
   * Creates a fast-reject QPS rule for everyone, measured on the resource itself.
   *
   * @param resource the protected resource
   * @param count the most calls per second; {@code >= 0}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static FlowRule qps(String resource, double count) {
    return new FlowRule(
        resource,
        FlowGrade.QPS,
        count,
        DEFAULT_APP,
        FlowStrategy.DIRECT,
        null,
        ControlBehavior.REJECT,
        null,
        DEFAULT_MAX_QUEUEING_TIME);
  }

  /**
   * Creates a concurrency rule for everyone, measured on the resource itself.
   *
   * @param resource the protected resource
   * @param count the most calls running at once; {@code >= 0}
   * @return the rule
   * @throws IllegalArgumentException if a value is invalid
   */
  public static FlowRule concurrency(String resource, double count) {
    return qps(resource, count).withGrade(FlowGrade.CONCURRENCY);
  }

  /**
   * Returns a copy with another grade.
   *
   * @param newGrade the grade
   * @return the new rule
   */
  public FlowRule withGrade(FlowGrade newGrade) {
    return new FlowRule(resource, newGrade, count, limitApp, strategy, refResource, behavior,
        warmUp, maxQueueingTime, cluster);
  }

  /**
   * Returns a copy with another threshold.
   *
   * @param newCount the threshold; {@code >= 0}
   * @return the new rule
   */
  public FlowRule withCount(double newCount) {
    return new FlowRule(resource, grade, newCount, limitApp, strategy, refResource, behavior,
        warmUp, maxQueueingTime, cluster);
  }

  /**
   * Returns a copy that applies to other callers.
   *
   * @param newLimitApp {@value #DEFAULT_APP}, {@value #OTHER_APP} or an origin name
   * @return the new rule
   */
  public FlowRule withLimitApp(String newLimitApp) {
    return new FlowRule(resource, grade, count, newLimitApp, strategy, refResource, behavior,
        warmUp, maxQueueingTime, cluster);
  }

  /**
   * Returns a copy with another strategy.
   *
   * @param newStrategy the strategy
   * @param newRefResource the related resource or entrance; null for {@link FlowStrategy#DIRECT}
   * @return the new rule
   */
  public FlowRule withStrategy(FlowStrategy newStrategy, @Nullable String newRefResource) {
    return new FlowRule(resource, grade, count, limitApp, newStrategy, newRefResource, behavior,
        warmUp, maxQueueingTime, cluster);
  }

  /**
   * Returns a copy with another control behaviour.
   *
   * @param newBehavior the behaviour
   * @return the new rule
   */
  public FlowRule withBehavior(ControlBehavior newBehavior) {
    return new FlowRule(resource, grade, count, limitApp, strategy, refResource, newBehavior,
        warmUp, maxQueueingTime, cluster);
  }

  /**
   * Returns a copy whose rate warms up (the behaviour is unchanged).
   *
   * @param newWarmUp the warm-up; null for a constant rate
   * @return the new rule
   */
  public FlowRule withWarmUp(@Nullable WarmUp newWarmUp) {
    return new FlowRule(resource, grade, count, limitApp, strategy, refResource, behavior,
        newWarmUp, maxQueueingTime, cluster);
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
    return new FlowRule(resource, grade, count, limitApp, strategy, refResource, behavior,
        new WarmUp(newPeriod, newColdFactor), maxQueueingTime, cluster);
  }

  /**
   * Returns a copy with another longest queueing time (the behaviour is unchanged).
   *
   * @param newMaxQueueingTime the bound; zero or positive
   * @return the new rule
   */
  public FlowRule withMaxQueueingTime(Duration newMaxQueueingTime) {
    return new FlowRule(resource, grade, count, limitApp, strategy, refResource, behavior,
        warmUp, newMaxQueueingTime, cluster);
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
    return new FlowRule(resource, grade, count, limitApp, strategy, refResource, behavior,
        warmUp, maxQueueingTime, newCluster);
  }
}
