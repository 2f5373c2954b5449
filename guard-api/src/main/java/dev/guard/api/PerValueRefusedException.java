package dev.guard.api;

import dev.guard.api.rule.Shaping;
import dev.guard.api.rule.FlowMetric;
import dev.guard.api.rule.PerValueRule;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Thrown when a per-value rule refuses a call because one value of an argument is over its
 * limit. See {@link RefusedException} for the common contract.
 *
 * <pre>{@code
 * try {
 *   loadCart.apply(userId);
 * } catch (PerValueRefusedException refused) {
 *   refused.retryAfter().ifPresent(wait -> response.header("Retry-After", wait.toSeconds() + 1));
 *   audit.note(refused.value());                 // the value itself, for code that asks for it
 * }
 * }</pre>
 *
 * <p>The message names the resource, the rule and the argument index, but never the value: values
 * are often user ids or tokens that do not belong in logs. {@link #value()} gives it to code that
 * asks. Because the value and the wait differ from call to call, each refusal by a hot-parameter
 * rule is its own instance (other refusals share one instance per rule); it has no stack trace
 * and builds its message only when the message is read.
 */
public final class PerValueRefusedException extends RefusedException {

  private static final long serialVersionUID = 1L;

  /** The position of the refused argument in the call. */
  private final int argumentIndex;
  private final transient Object value;
  /** Nanoseconds until the value has a token again; negative when unknown. */
  private final long retryAfterNanos;

  /**
   * Creates the exception for a refused call.
   *
   * @param resource the resource whose call was refused
   * @param rule the rule that refused it
   * @param argumentIndex the index of the argument in this call (a negative rule index resolved)
   * @param value the refused value: the argument, or the element of a collection or array
   *     argument that was over its limit
   * @param retryAfterNanos how long until the value has a token again, in nanoseconds; negative
   *     when unknown (a concurrency limit, a threshold of 0)
   */
  public PerValueRefusedException(String resource, PerValueRule rule, int argumentIndex,
      Object value, long retryAfterNanos) {
    super(resource, rule);
    this.argumentIndex = argumentIndex;
    this.value = Objects.requireNonNull(value, "value");
    this.retryAfterNanos = retryAfterNanos;
  }

  /**
   * Returns the per-value rule that refused the call.
   *
   * @return the refusing rule
   */
  @Override
  public PerValueRule rule() {
    return (PerValueRule) super.rule();
  }

  /**
   * Returns the index of the refused argument in the call's arguments: the rule's index, or for a
   * negative rule index the position it resolved to in this call.
   *
   * @return the argument index, {@code >= 0}
   */
  public int argumentIndex() {
    return argumentIndex;
  }

  /**
   * Returns the refused value (the argument, or the element of a collection or array argument that
   * was over its limit). It is deliberately not part of the message; treat it as the caller's
   * data. Like the rule, it is not serialized.
   *
   * @return the value
   */
  public Object value() {
    return value;
  }

  /**
   * Returns how long after the refusal the value has a token again, where the rule can tell: for
   * a token bucket the time until its next refill gives enough tokens, for pacing the time until
   * the call would fit in the queue. Empty for concurrency limits and for values that are never
   * admitted (threshold 0, or more permits than the bucket holds).
   *
   * @return the wait, if known
   */
  @Override
  public Optional<Duration> retryAfter() {
    return super.retryAfter();
  }

  @Override
  long retryAfterNanos() {
    return retryAfterNanos < 0 ? -1L : retryAfterNanos;
  }

  @Override
  public String getMessage() {
    PerValueRule rule = rule();
    StringBuilder message = new StringBuilder("hot-parameter limiting refused a call to '")
        .append(resource()).append("' by PerValueRule(argument ").append(rule.argumentIndex())
        .append(", ");
    if (rule.metric() == FlowMetric.CONCURRENCY) {
      message.append(rule.threshold()).append(" running per value");
    } else {
      message.append(rule.threshold()).append(" per ").append(rule.period().toMillis()).append(" ms");
      if (rule.shaping() == Shaping.PACING) {
        message.append(", paced, queue ").append(rule.maxQueueingTime().toMillis()).append(" ms");
      }
      if (rule.burst() > 0) {
        message.append(", burst ").append(rule.burst());
      }
    }
    if (!rule.exceptions().isEmpty()) {
      message.append(", ").append(rule.exceptions().size()).append(" exception(s)");
    }
    message.append("): the value of argument ").append(argumentIndex).append(" is over its limit");
    if (retryAfterNanos >= 0) {
      message.append("; retry after ").append(Duration.ofNanos(retryAfterNanos).toMillis())
          .append(" ms");
    }
    return message.toString();
  }
}
