package dev.guard;

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
public final class QuotaGuard extends Guard
    implements OriginSteps<QuotaGuard>, ClusterSteps<QuotaGuard> {

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

  @Override
  QuotaGuard restage(GuardPart changed) {
    return new QuotaGuard(List.of(changed), engine());
  }

  private QuotaGuard next(UnaryOperator<FlowRule> change) {
    return restage(part().mapLastRule(FlowRule.class, change));
  }
}
