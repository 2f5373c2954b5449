package dev.guard.api;

import java.util.Objects;
import java.util.function.LongSupplier;
import dev.guard.api.rule.FlowRule;

/** Thrown when a flow rule (QPS or concurrency limit, warm-up or pacing) refuses a call. See {@link RefusedException} for the common contract. */
public final class FlowRefusedException extends RefusedException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception for a refused call.
   *
   * @param resource the resource whose call was refused
   * @param rule the rule that refused it
   */
  public FlowRefusedException(String resource, FlowRule rule) {
    super("flow control", resource, rule);
  }

  /**
   * Creates the exception for the refusals of one rule, with a reading of the wait until a retry
   * could pass.
   *
   * @param resource the resource whose call was refused
   * @param rule the rule that refused it
   * @param retryAfterNanos read by {@link #retryAfter()} when it is called: nanoseconds until a
   *     retry could pass, negative when unknown
   */
  public FlowRefusedException(String resource, FlowRule rule, LongSupplier retryAfterNanos) {
    super("flow control", resource, rule, null,
        Objects.requireNonNull(retryAfterNanos, "retryAfterNanos"));
  }

  /**
   * Returns the flow rule that refused the call.
   *
   * @return the refusing flow rule
   */
  @Override
  public FlowRule rule() {
    return (FlowRule) super.rule();
  }
}
