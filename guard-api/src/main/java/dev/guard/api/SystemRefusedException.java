package dev.guard.api;

import dev.guard.api.internal.Checks;
import dev.guard.api.rule.SystemLimit;
import dev.guard.api.rule.SystemRule;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Thrown when system protection refuses an inbound call: the engine's inbound traffic as a whole
 * is over a threshold of its (merged) {@link SystemRule}. {@link #limit()} says which threshold.
 * See {@link RefusedException} for the common contract.
 *
 * <pre>{@code
 * catch (SystemRefusedException overloaded) {
 *   log.warn("shed {}: {} over {}", overloaded.resource(), overloaded.limit(), overloaded.threshold());
 * }
 * }</pre>
 *
 * <p>An engine shares one instance among all refusals of a resource by one threshold, so the
 * exception carries the threshold but not the value measured at one refusal; the engine's
 * inbound statistics and system status report those.
 */
public final class SystemRefusedException extends RefusedException {

  private static final long serialVersionUID = 1L;

  /** The refusing threshold (part of the serialized form). */
  private final SystemLimit limit;

  /** The refusing threshold's value (part of the serialized form). */
  private final double threshold;

  /**
   * Creates the exception for refusals of one resource by one threshold.
   *
   * @param resource the resource whose call was refused
   * @param rule the merged system rule in force
   * @param limit the threshold that refused; it must be set in {@code rule}
   * @throws IllegalArgumentException if {@code rule} does not set {@code limit}
   */
  public SystemRefusedException(String resource, SystemRule rule, SystemLimit limit) {
    this(resource, rule, limit, () -> -1L);
  }

  /**
   * Creates the exception for refusals of one resource by one threshold, with a reading of the
   * wait until a retry could pass.
   *
   * @param resource the resource whose call was refused
   * @param rule the merged system rule in force
   * @param limit the threshold that refused; it must be set in {@code rule}
   * @param retryAfterNanos read by {@link #retryAfter()} when it is called: nanoseconds until a
   *     retry could pass, negative when unknown
   * @throws IllegalArgumentException if {@code rule} does not set {@code limit}
   */
  public SystemRefusedException(String resource, SystemRule rule, SystemLimit limit,
      LongSupplier retryAfterNanos) {
    super("system protection", resource, rule, describe(rule, limit),
        Objects.requireNonNull(retryAfterNanos, "retryAfterNanos"));
    this.limit = limit;
    this.threshold = Objects.requireNonNull(rule.threshold(limit));
  }

  private static String describe(SystemRule rule, SystemLimit limit) {
    Double value = Objects.requireNonNull(rule, "rule").threshold(Objects.requireNonNull(limit, "limit"));
    if (value == null) {
      throw Checks.invalid("limit", limit, "must be a threshold the rule sets");
    }
    return switch (limit) {
      case QPS -> "inbound QPS over " + value;
      case CONCURRENCY -> "inbound concurrency at " + value.longValue();
      case RT -> "inbound average RT over " + value + " ms";
      case LOAD -> "system load per CPU over " + value + " and inbound calls over capacity";
      case CPU -> "CPU usage over " + value;
    };
  }

  /**
   * Returns the threshold that refused the call.
   *
   * @return the limit type: qps, concurrency, rt, load or cpu
   */
  public SystemLimit limit() {
    return limit;
  }

  /**
   * Returns the value of the refusing threshold in the rule: calls per second, calls,
   * milliseconds, load per CPU or a share of the CPU.
   *
   * @return the threshold
   */
  public double threshold() {
    return threshold;
  }

  /**
   * Returns the merged system rule that refused the call.
   *
   * @return the refusing rule
   */
  @Override
  public SystemRule rule() {
    return (SystemRule) super.rule();
  }
}
