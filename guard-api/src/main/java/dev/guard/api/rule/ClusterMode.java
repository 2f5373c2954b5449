package dev.guard.api.rule;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.internal.Checks;
import java.time.Duration;
import java.util.Objects;

/**
 * Makes a flow rule a cluster rule: the engine's token service decides its calls for every
 * instance that uses the same {@code flowId}, instead of the instance's own statistics (a QPS rule
 * from a shared window, a concurrency rule from shared concurrency tokens).
 *
 * <pre>{@code
 * FlowRule rule = FlowRule.qps("createOrder", 1000).withCluster(ClusterMode.global("orders"));
 * }</pre>
 *
 * @param flowId the rule's name in the token service, shared by every instance that counts
 *     together; not blank, without {@code '{'} or {@code '}'}
 * @param threshold whether {@code threshold} is the cluster's threshold or each instance's share
 * @param fallbackToLocal when the token service fails or is absent: true checks the rule against
 *     the instance's own statistics, false lets the call pass
 * @param window the length of the token service's window for this flow id; whole milliseconds,
 *     positive, at most one day
 * @param buckets how many buckets the window has; from 1 to 1,000,
 *     dividing {@code window} into whole milliseconds
 * @param leaseTime how long a concurrency token lives when its holder never gives it back;
 *     positive, at most one day
 */
public record ClusterMode(
    String flowId,
    ClusterMode.Threshold threshold,
    boolean fallbackToLocal,
    Duration window,
    int buckets,
    Duration leaseTime) {

  /** The default window of the token service: 1 s. */
  public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(1);

  /** The default number of buckets of the token service's window: 10. */
  public static final int DEFAULT_BUCKETS = 10;

  /** The default life of an unreturned concurrency token: 2 s. */
  public static final Duration DEFAULT_LEASE_TIME = Duration.ofSeconds(2);

  /**
   * Validates the fields.
   *
   * @param flowId the rule's name in the token service
   * @param threshold what {@code threshold} means for the cluster
   * @param fallbackToLocal whether a failure checks the rule locally (else passes)
   * @param window the token service's window length
   * @param buckets the window's bucket count
   * @param leaseTime the life of an unreturned concurrency token
   * @throws IllegalArgumentException if a field is invalid; the message names it and its value
   * @throws NullPointerException if a field is null
   */
  public ClusterMode {
    flowId = Checks.notBlank("flowId", flowId).strip();
    if (flowId.indexOf('{') >= 0 || flowId.indexOf('}') >= 0) {
      throw Checks.invalid("flowId", flowId,
          "must not contain '{' or '}' (a token service may use them to keep a flow id's keys"
              + " together)");
    }
    Objects.requireNonNull(threshold, "threshold");
    Checks.positive("window", window);
    Checks.atMost("window", window, RuleLimits.MAX_DURATION);
    if (buckets <= 0) {
      throw Checks.invalid("buckets", buckets, "must be > 0");
    }
    Checks.atMost("buckets", buckets, RuleLimits.MAX_BUCKETS);
    if (window.getNano() % 1_000_000 != 0 || window.toMillis() % buckets != 0) {
      throw Checks.invalid(
          "window", window, "must be whole milliseconds divisible by buckets (" + buckets + ")");
    }
    Checks.positive("leaseTime", leaseTime);
    Checks.atMost("leaseTime", leaseTime, RuleLimits.MAX_DURATION);
  }

  /**
   * A cluster-wide threshold: {@code threshold} is shared by every instance, with local fallback on
   * failure and the default window (10 buckets over 1 s).
   *
   * @param flowId the rule's name in the token service; not blank
   * @return the cluster mode
   */
  public static ClusterMode global(String flowId) {
    return new ClusterMode(flowId, ClusterMode.Threshold.GLOBAL, true, DEFAULT_WINDOW,
        DEFAULT_BUCKETS, DEFAULT_LEASE_TIME);
  }

  /**
   * A per-instance threshold: the cluster admits {@code threshold} times the connected instances, with
   * local fallback on failure and the default window (10 buckets over 1 s).
   *
   * @param flowId the rule's name in the token service; not blank
   * @return the cluster mode
   */
  public static ClusterMode perInstance(String flowId) {
    return global(flowId).withThreshold(ClusterMode.Threshold.PER_INSTANCE);
  }

  /**
   * Returns a copy with another threshold type.
   *
   * @param newThreshold the threshold type
   * @return the new mode
   */
  public ClusterMode withThreshold(ClusterMode.Threshold newThreshold) {
    return new ClusterMode(flowId, newThreshold, fallbackToLocal, window, buckets, leaseTime);
  }

  /**
   * Returns a copy that, when the token service fails, checks locally ({@code true}) or passes.
   *
   * @param newFallbackToLocal true to check the rule locally on failure, false to pass
   * @return the new mode
   */
  public ClusterMode withFallbackToLocal(boolean newFallbackToLocal) {
    return new ClusterMode(flowId, threshold, newFallbackToLocal, window, buckets, leaseTime);
  }

  /**
   * Returns a copy with another window in the token service.
   *
   * @param newBuckets the bucket count; positive
   * @param newWindow the window length; whole milliseconds divisible by {@code newBuckets}
   * @return the new mode
   * @throws IllegalArgumentException if the geometry is invalid
   */
  public ClusterMode withWindow(int newBuckets, Duration newWindow) {
    return new ClusterMode(flowId, threshold, fallbackToLocal, newWindow, newBuckets, leaseTime);
  }

  /**
   * Returns a copy with another concurrency-token lifetime.
   *
   * @param newLeaseTime the lifetime; positive
   * @return the new mode
   */
  public ClusterMode withLeaseTime(Duration newLeaseTime) {
    return new ClusterMode(flowId, threshold, fallbackToLocal, window, buckets, newLeaseTime);
  }

  /**
   * The bucket length in milliseconds.
   *
   * @return {@code window / buckets} in ms
   */
  public long bucketMs() {
    return window.toMillis() / buckets;
  }

  /** How a cluster-mode flow rule's {@code threshold} becomes the threshold shared by the cluster. */
  public enum Threshold {
    /** {@code threshold} is the threshold of the whole cluster. */
    GLOBAL,
    /**
     * {@code threshold} is per instance: the cluster threshold is {@code threshold} times the instances
     * currently connected to the token service (at least 1: the asking instance counts itself).
     */
    PER_INSTANCE
  }
}
