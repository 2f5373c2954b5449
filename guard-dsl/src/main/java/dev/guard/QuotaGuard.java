package dev.guard;

import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A guard whose most recent step added a quota to a {@code qps(..)} rule: the rule's calls per
 * second and, besides, at most so many calls per minute, hour or day (docs/FLOW.md, "Quotas").
 * It offers the steps that still fit a rule with quotas, each returning a new {@code QuotaGuard}
 * for the same rule: more quotas, the callers it applies to, and sharing through the token
 * service. A rule with quotas neither warms up nor paces nor measures another resource, so those
 * steps are not offered (writing them does not compile).
 *
 * <pre>{@code
 * Guard api = Guard.of("partnerApi")
 *     .qps(50).quota(1_000, Duration.ofMinutes(1)).quota(50_000, Duration.ofDays(1))
 *     .clusterWide();
 * }</pre>
 *
 * <p>Immutable and thread-safe like every guard.
 */
public final class QuotaGuard extends Guard {

  QuotaGuard(List<GuardPart> parts, @Nullable GuardEngine engine) {
    super(parts, engine);
  }

  /**
   * Adds another quota to the rule, as {@link QpsGuard#quota} describes.
   *
   * @param limit calls per {@code period}; from 0 to 16,777,215
   * @param period whole milliseconds, from 1 ms to one day
   * @return the new guard
   * @throws IllegalArgumentException if a value is out of range, or the rule has 8 quotas already
   */
  public QuotaGuard quota(int limit, Duration period) {
    Objects.requireNonNull(period, "period");
    return next(rule -> rule.withQuota(limit, period));
  }

  /**
   * Scopes the rule, its quotas with it, to callers, as {@link ConcurrencyGuard#fromOrigin}
   * describes.
   *
   * @param origin {@code "default"} (everyone), {@code "other"} or one origin name
   * @return the new guard
   */
  public QuotaGuard fromOrigin(String origin) {
    Objects.requireNonNull(origin, "origin");
    return next(rule -> rule.withOrigin(origin));
  }

  /**
   * Makes the rule one threshold for the whole cluster and shares its quotas between every
   * instance through the engine's token service (docs/CLUSTER.md), under the flow id of the
   * resource's name; when the service cannot decide, each instance checks its own.
   *
   * @return the new guard
   */
  public QuotaGuard clusterWide() {
    return next(FlowSteps::clusterWide);
  }

  /**
   * Makes the rule a cluster rule with a mode of your own, its quotas shared under the mode's
   * flow id.
   *
   * @param mode a {@link ClusterMode.Threshold#GLOBAL} mode
   * @return the new guard
   * @throws IllegalArgumentException if the mode is per instance
   */
  public QuotaGuard cluster(ClusterMode mode) {
    Objects.requireNonNull(mode, "mode");
    return next(rule -> FlowSteps.cluster(rule, mode));
  }

  private QuotaGuard next(UnaryOperator<FlowRule> change) {
    return new QuotaGuard(List.of(part().mapLastRule(FlowRule.class, change)), engine());
  }
}
