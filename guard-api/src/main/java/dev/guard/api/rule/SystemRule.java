package dev.guard.api.rule;

import dev.guard.api.internal.RuleLimits;
import dev.guard.api.internal.Checks;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable system-protection rule: limits on the whole inbound traffic of an engine (every
 * call entered as {@link dev.guard.api.EntryType#IN}, of every resource), not on one resource.
 * Each threshold is optional; a null one does not limit.
 *
 * <pre>{@code
 * engine.apply(engine.ruleSet().withRulesOf(SystemRule.INBOUND, List.of(
 *     SystemRule.of().withMaxInboundQps(5000).withMaxCpuUsage(0.8))));
 * }</pre>
 *
 * <p>An engine merges all its system rules into one: for every threshold the smallest value any
 * rule sets ({@link #merge}); protection is on as long as some rule sets a threshold. Calls entered
 * as {@link dev.guard.api.EntryType#OUT} are never checked.
 *
 * <p>The constructor validates every threshold and throws {@link IllegalArgumentException} naming
 * the field and the value, so an invalid threshold is never silently ignored.
 *
 * @param maxInboundQps the most inbound calls per second (counting this one); from 0 (refuses
 *     every inbound call) to 10<sup>9</sup>
 * @param maxConcurrency the most inbound calls running at once; {@code >= 0}
 * @param maxAverageRt the longest average response time of inbound calls (in the second-level
 *     window) at which calls are still admitted; from zero to one day;
 *     compared in milliseconds
 * @param maxSystemLoad the 1-minute load average per usable CPU above which the capacity test
 *     runs: calls are refused only while more inbound calls run than the measured capacity (peak
 *     completions per second × minimum response time) can serve; from 0 to 10,000
 * @param maxCpuUsage the share of the CPU the process may use above which inbound calls are
 *     refused; in {@code [0, 1]}
 */
public record SystemRule(
    @Nullable Double maxInboundQps,
    @Nullable Integer maxConcurrency,
    @Nullable Duration maxAverageRt,
    @Nullable Double maxSystemLoad,
    @Nullable Double maxCpuUsage)
    implements Rule {

  /**
   * The name {@link #resource()} gives: system rules protect the engine's inbound traffic as a
   * whole, not a resource of that name.
   */
  public static final String INBOUND = "__inbound__";

  private static final SystemRule NONE = new SystemRule(null, null, null, null, null);

  /**
   * Validates the thresholds.
   *
   * @param maxInboundQps the most inbound calls per second, or null
   * @param maxConcurrency the most inbound calls running at once, or null
   * @param maxAverageRt the longest average response time of inbound calls, or null
   * @param maxSystemLoad the load per usable CPU that arms the capacity test, or null
   * @param maxCpuUsage the highest share of the usable CPU, or null
   * @throws IllegalArgumentException if a threshold is invalid; the message names it and its value
   */
  public SystemRule {
    if (maxInboundQps != null) {
      Checks.finiteNonNegative("maxInboundQps", maxInboundQps);
      Checks.atMost("maxInboundQps", maxInboundQps, RuleLimits.MAX_COUNT);
    }
    if (maxConcurrency != null) {
      Checks.nonNegative("maxConcurrency", maxConcurrency);
    }
    if (maxAverageRt != null) {
      Checks.notNegative("maxAverageRt", maxAverageRt);
      Checks.atMost("maxAverageRt", maxAverageRt, RuleLimits.MAX_DURATION);
    }
    if (maxSystemLoad != null) {
      Checks.finiteNonNegative("maxSystemLoad", maxSystemLoad);
      Checks.atMost("maxSystemLoad", maxSystemLoad, RuleLimits.MAX_SYSTEM_LOAD);
    }
    if (maxCpuUsage != null && !(maxCpuUsage >= 0 && maxCpuUsage <= 1)) {
      throw Checks.invalid("maxCpuUsage", maxCpuUsage, "must be in [0, 1]");
    }
  }

  /**
   * Returns a rule that sets no threshold, to derive rules from with the {@code with..} methods.
   *
   * @return the rule without thresholds
   */
  public static SystemRule of() {
    return NONE;
  }

  /**
   * Merges rules into the one an engine applies: for every threshold the smallest value any of the
   * rules sets; a threshold none sets stays unset.
   *
   * @param rules the rules
   * @return the merged rule ({@link #of()} for no rules)
   */
  public static SystemRule merge(List<SystemRule> rules) {
    SystemRule merged = NONE;
    for (SystemRule rule : rules) {
      merged = new SystemRule(
          min(merged.maxInboundQps, rule.maxInboundQps),
          min(merged.maxConcurrency, rule.maxConcurrency),
          min(merged.maxAverageRt, rule.maxAverageRt),
          min(merged.maxSystemLoad, rule.maxSystemLoad),
          min(merged.maxCpuUsage, rule.maxCpuUsage));
    }
    return merged;
  }

  private static <T extends Comparable<T>> @Nullable T min(@Nullable T a, @Nullable T b) {
    if (a == null) {
      return b;
    }
    return b == null || a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * Tells whether the rule sets any threshold; an engine protects the system while one of its
   * rules does.
   *
   * @return whether some threshold is set
   */
  public boolean limitsAnything() {
    return maxInboundQps != null || maxConcurrency != null || maxAverageRt != null
        || maxSystemLoad != null || maxCpuUsage != null;
  }

  /**
   * Returns the value of one threshold as a number: calls per second, calls, milliseconds, load per
   * CPU or a share of the CPU.
   *
   * @param limit the threshold
   * @return its value, or null when unset
   */
  public @Nullable Double threshold(SystemRule.Limit limit) {
    return switch (Objects.requireNonNull(limit, "limit")) {
      case QPS -> maxInboundQps;
      case CONCURRENCY -> maxConcurrency == null ? null : maxConcurrency.doubleValue();
      case RT -> maxAverageRt == null ? null : maxAverageRt.toNanos() / 1_000_000.0;
      case LOAD -> maxSystemLoad;
      case CPU -> maxCpuUsage;
    };
  }

  /**
   * Returns {@value #INBOUND}: system rules protect every inbound call of an engine.
   *
   * @return {@value #INBOUND}
   */
  @Override
  public String resource() {
    return INBOUND;
  }

  /**
   * Returns a copy with another limit on inbound calls per second.
   *
   * @param qps calls per second; finite and {@code >= 0}
   * @return the new rule
   * @throws IllegalArgumentException if {@code qps} is invalid
   */
  public SystemRule withMaxInboundQps(double qps) {
    return new SystemRule(qps, maxConcurrency, maxAverageRt, maxSystemLoad, maxCpuUsage);
  }

  /**
   * Returns a copy with another limit on inbound calls per second; the same as {@link
   * #withMaxInboundQps(double)}, for whole numbers ({@code withMaxInboundQps(5000)} from Kotlin,
   * where an {@code Int} is not a {@code Double}).
   *
   * @param qps calls per second; {@code >= 0}
   * @return the new rule
   * @throws IllegalArgumentException if {@code qps} is negative
   */
  public SystemRule withMaxInboundQps(int qps) {
    return withMaxInboundQps((double) qps);
  }

  /**
   * Returns a copy with another limit on inbound calls running at once: at most {@code calls}.
   *
   * @param calls concurrent inbound calls; {@code >= 0}
   * @return the new rule
   * @throws IllegalArgumentException if {@code calls} is negative
   */
  public SystemRule withMaxConcurrency(int calls) {
    return new SystemRule(maxInboundQps, calls, maxAverageRt, maxSystemLoad, maxCpuUsage);
  }

  /**
   * Returns a copy with another limit on the average response time of inbound calls.
   *
   * @param rt the longest average; not negative
   * @return the new rule
   * @throws IllegalArgumentException if {@code rt} is negative
   */
  public SystemRule withMaxAverageRt(Duration rt) {
    Objects.requireNonNull(rt, "maxAverageRt");
    return new SystemRule(maxInboundQps, maxConcurrency, rt, maxSystemLoad, maxCpuUsage);
  }

  /**
   * Returns a copy with another load threshold (1-minute load average per usable CPU) that arms
   * the capacity test.
   *
   * @param loadPerCpu the threshold; finite and {@code >= 0}
   * @return the new rule
   * @throws IllegalArgumentException if {@code loadPerCpu} is invalid
   */
  public SystemRule withMaxSystemLoad(double loadPerCpu) {
    return new SystemRule(maxInboundQps, maxConcurrency, maxAverageRt, loadPerCpu, maxCpuUsage);
  }

  /**
   * Returns a copy with another limit on CPU usage (the share of the CPU the process may use).
   *
   * @param usage the limit; in {@code [0, 1]}
   * @return the new rule
   * @throws IllegalArgumentException if {@code usage} is outside {@code [0, 1]}
   */
  public SystemRule withMaxCpuUsage(double usage) {
    return new SystemRule(maxInboundQps, maxConcurrency, maxAverageRt, maxSystemLoad, usage);
  }

  /**
   * Returns the thresholds that are set, {@code SystemRule[maxInboundQps=5000.0, maxCpuUsage=0.8]}.
   *
   * @return a description of the rule
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("SystemRule[");
    appendIfSet(text, "maxInboundQps", maxInboundQps);
    appendIfSet(text, "maxConcurrency", maxConcurrency);
    appendIfSet(text, "maxAverageRt", maxAverageRt);
    appendIfSet(text, "maxSystemLoad", maxSystemLoad);
    appendIfSet(text, "maxCpuUsage", maxCpuUsage);
    return text.append(']').toString();
  }

  private static void appendIfSet(StringBuilder text, String name, @Nullable Object value) {
    if (value != null) {
      text.append(text.charAt(text.length() - 1) == '[' ? "" : ", ").append(name).append('=')
          .append(value);
    }
  }

  /**
   * The thresholds of a {@link SystemRule}, in the order an engine checks them; a {@link
   * dev.guard.api.RefusedException.SystemProtection} names the one that refused a call.
   */
  public enum Limit {
    /** Inbound calls per second ({@link SystemRule#maxInboundQps()}). */
    QPS,
    /** Inbound calls running at once ({@link SystemRule#maxConcurrency()}). */
    CONCURRENCY,
    /** Average response time of inbound calls ({@link SystemRule#maxAverageRt()}). */
    RT,
    /** System load per usable CPU, with the capacity test ({@link SystemRule#maxSystemLoad()}). */
    LOAD,
    /** CPU usage of the CPU the process may use ({@link SystemRule#maxCpuUsage()}). */
    CPU
  }
}
