package dev.guard.rules;

import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.Quota;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.SystemRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Rules of every kind with every field at its longest written form: names of {@link
 * RuleFormat#MAX_STRING_CHARS} characters, the longest duration text within a day, numbers whose
 * shortest form is longest, every optional field set away from its default, lists at their
 * longest. The building blocks of the largest rule sets the format accepts.
 */
final class LargestRules {

  /** The longest text of a duration of at most a day, in whole milliseconds. */
  static final Duration LONGEST_MS = Duration.parse("PT23H59M59.999S");
  /** The longest text of a duration of at most a day. */
  static final Duration LONGEST = Duration.parse("PT23H59M59.999999999S");
  /** A rate with the longest written form (20 characters). */
  static final double RATE = 123456789.01234567;
  /** A ratio with the longest written form. */
  static final double RATIO = 0.12345678901234568;

  private LargestRules() {}

  /** A name of exactly {@code length} characters that ends with {@code tag}. */
  static String name(String tag, int length) {
    return "x".repeat(Math.max(0, length - tag.length())) + tag;
  }

  /** The longest name tagged {@code tag}. */
  static String name(String tag) {
    return name(tag, RuleFormat.MAX_STRING_CHARS);
  }

  /**
   * One rule of each kind but the system rule, and a second flow rule with quotas, each on a
   * resource named from {@code tag} with a name of {@code length} characters (the other names of
   * the rules as long).
   */
  static List<Rule> of(String tag, int length) {
    String resource = name(tag, length);
    List<Rule> rules = new ArrayList<>();
    rules.add(FlowRule.qps(resource, RATE).withOrigin(name(tag + "o", length))
        .withStrategy(FlowRule.Strategy.RELATED, name(tag + "r", length))
        .withWarmUp(LONGEST, 100).withShaping(FlowRule.Shaping.PACING)
        .withMaxQueueingTime(LONGEST));
    rules.add(FlowRule.qps(resource, RATE).withOrigin(name(tag + "q", length))
        .withQuotas(quotas())
        .withCluster(ClusterMode.global(name(tag + "g", length)).withFallbackToLocal(false)
            .withWindow(1000, Duration.ofDays(1)).withLeaseTime(LONGEST)));
    PerValueRule perValue = PerValueRule.qps(resource, -255, 8_388_607)
        .withBurst(8_388_608).withPeriod(LONGEST_MS)
        .withValueType(String.class).withMaxValues(10_000_000);
    for (int i = 0; i < 4; i++) {
      perValue = perValue.withException(name(tag + "e" + i, length), 8_388_607);
    }
    for (Quota quota : quotas()) {
      perValue = perValue.withQuota(quota.limit(), quota.period());
    }
    rules.add(perValue.withCluster(ClusterMode.global(name(tag + "k", length))
        .withFallbackToLocal(false)));
    rules.add(CircuitBreakerRule.slowCallRatio(resource, LONGEST_MS, RATIO)
        .withMinCalls(Integer.MAX_VALUE).withStatWindow(Duration.ofDays(1), 1000)
        .withOpenFor(LONGEST_MS).withProbes(Integer.MAX_VALUE, LONGEST_MS));
    List<String> origins = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      origins.add(name(tag + "a" + i, length));
    }
    rules.add(OriginRule.deny(resource, origins.toArray(String[]::new)));
    AdaptiveConcurrencyRule adaptive = AdaptiveConcurrencyRule.of(resource)
        .withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD)
        .withLimits(999_999_999, 999_999_998, 1_000_000_000)
        .withWindow(LONGEST_MS).withSlowerThan(LONGEST_MS);
    for (int i = 0; i < AdaptiveConcurrencyRule.MAX_SHARES; i++) {
      adaptive = adaptive.withShare(name(tag + "s" + i, length), 0.0612345678901234);
    }
    rules.add(adaptive);
    return rules;
  }

  /** The engine's system rule with every limit set, at its longest. */
  static SystemRule system() {
    return SystemRule.of().withMaxInboundQps(RATE).withMaxConcurrency(Integer.MAX_VALUE)
        .withMaxAverageRt(LONGEST_MS).withMaxSystemLoad(9999.123456789012)
        .withMaxCpuUsage(RATIO);
  }

  private static List<Quota> quotas() {
    List<Quota> quotas = new ArrayList<>();
    for (int i = 0; i < Quota.MAX_PER_RULE; i++) {
      quotas.add(new Quota(Quota.MAX_LIMIT, LONGEST_MS.minusMillis(i)));
    }
    return quotas;
  }
}
