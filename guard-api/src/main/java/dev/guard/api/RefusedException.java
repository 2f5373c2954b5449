package dev.guard.api;

import dev.guard.api.rule.Rule;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.internal.Checks;
import dev.guard.api.rule.SystemRule;
import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import java.util.function.IntSupplier;
import java.util.Locale;

/**
 * Thrown when a protection refuses a call: the protected code did not run.
 *
 * <p>Unchecked and sealed: the nested subclasses name the kind of protection that refused ({@link
 * Flow}, {@link PerValue}, {@link Breaker}, {@link SystemProtection}, {@link Origin}), so a
 * caller catches the one it handles and a pattern {@code switch} (Java 21) covers them all; {@link
 * Kind} has one constant per subclass. Every instance
 * carries the resource and the rule that refused, and its message names both. No stack trace is
 * captured and suppression is disabled, because refusal sits on the hot path and a trace would
 * carry no information; an engine may therefore throw the same instance for every refusal by one
 * rule.
 *
 * <pre>{@code
 * try {
 *   guarded.get();
 * } catch (RefusedException e) {
 *   log.info("refused {} by {}", e.resource(), e.rule());
 *   e.retryAfter().ifPresent(wait -> response.setHeader("Retry-After", seconds(wait)));
 * }
 * }</pre>
 *
 * <pre>{@code
 * String reason = switch (refused) {
 *   case RefusedException.Flow flow -> "rate";
 *   case RefusedException.PerValue perValue -> "value " + perValue.argumentIndex();
 *   case RefusedException.Breaker breaker -> "breaker " + breaker.state();
 *   case RefusedException.SystemProtection system -> "system " + system.limit();
 *   case RefusedException.Origin origin -> "origin " + origin.origin();
 * };
 * }</pre>
 *
 * <p>{@link #retryAfter()} tells how long until a retry could pass, where the refusing rule can
 * tell. Because one instance serves every refusal by a rule, the wait is computed from the rule's
 * state when {@code retryAfter()} is called, not stored at the refusal: read it while handling the
 * refusal. Refusing therefore costs nothing extra; only asking allocates (the {@code Optional}).
 */
public abstract sealed class RefusedException extends RuntimeException
    permits RefusedException.Flow,
        RefusedException.Breaker,
        RefusedException.PerValue,
        RefusedException.SystemProtection,
        RefusedException.Origin,
        RefusedException.AdaptiveConcurrency {

  private static final long serialVersionUID = 1L;

  /** The name of the refused resource (part of the serialized form). */
  private final String resource;
  private final transient Rule rule;
  /** Reads the wait in nanoseconds (negative when unknown); null when the kind never knows it. */
  private final transient @Nullable LongSupplier retryAfterNanos;

  RefusedException(String protection, String resource, Rule rule) {
    this(protection, resource, rule, null);
  }

  /** With a detail appended to the message in parentheses, such as the origin that was refused. */
  RefusedException(String protection, String resource, Rule rule, @Nullable String detail) {
    this(protection, resource, rule, detail, null);
  }

  /** With a reading of the wait until a retry could pass (see {@link #retryAfter()}). */
  RefusedException(String protection, String resource, Rule rule, @Nullable String detail,
      @Nullable LongSupplier retryAfterNanos) {
    super(
        protection
            + " refused a call to '"
            + Objects.requireNonNull(resource, "resource")
            + "' by "
            + Objects.requireNonNull(rule, "rule")
            + (detail == null ? "" : " (" + detail + ")"),
        null,
        false,
        false);
    this.resource = resource;
    this.rule = rule;
    this.retryAfterNanos = retryAfterNanos;
  }

  /** For a subclass that builds its message only when it is read (it overrides getMessage). */
  RefusedException(String resource, Rule rule) {
    super(null, null, false, false);
    this.resource = Objects.requireNonNull(resource, "resource");
    this.rule = Objects.requireNonNull(rule, "rule");
    this.retryAfterNanos = null;
  }

  /**
   * Returns the name of the resource whose call was refused.
   *
   * @return the resource name
   */
  public final String resource() {
    return resource;
  }

  /**
   * Returns the rule that refused the call.
   *
   * @return the refusing rule
   */
  public Rule rule() {
    return rule;
  }

  /**
   * Returns how long from now until a retry of the refused call could pass, where the refusing rule
   * can tell: for a QPS flow rule that refuses at once, the time until the statistics window's
   * next bucket starts; for a paced flow rule, the time until a call would fit in its queue; for a
   * circuit breaker, the time until its next probe; for a per-value rule, the time until the
   * value has a token again; for system protection's QPS and RT thresholds, the time until the
   * inbound window's next bucket. Empty where the engine cannot know (concurrency limits,
   * origin rules, load and CPU thresholds, a limit of 0). A retry after the wait is not guaranteed to
   * pass: other callers may take the capacity first.
   *
   * <p>The wait is computed when this method is called, from the rule's state at that moment
   * (docs/BEHAVIOUR.md, "Retry after"): read it while handling the refusal.
   *
   * @return the wait, never negative, if known
   */
  public Optional<Duration> retryAfter() {
    long nanos = retryAfterNanos();
    return nanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(nanos));
  }

  /**
   * Returns {@link #retryAfter()} in whole milliseconds, rounded up, without allocating: what an
   * HTTP {@code Retry-After} header or a log line needs.
   *
   * @return the wait in milliseconds, or {@code -1} if unknown
   */
  public long retryAfterMillis() {
    long nanos = retryAfterNanos();
    return nanos < 0 ? -1L : (nanos + 999_999L) / 1_000_000L;
  }

  /** The wait in nanoseconds, negative when unknown; subclasses that store it override this. */
  long retryAfterNanos() {
    LongSupplier reader = retryAfterNanos;
    if (reader == null) {
      return -1L;
    }
    long nanos = reader.getAsLong();
    return nanos < 0 ? -1L : nanos;
  }

  /** Thrown when a flow rule (QPS or concurrency limit, warm-up or pacing) refuses a call. See {@link RefusedException} for the common contract. */
  public static final class Flow extends RefusedException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a refused call.
     *
     * @param resource the resource whose call was refused
     * @param rule the rule that refused it
     */
    public Flow(String resource, FlowRule rule) {
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
    public Flow(String resource, FlowRule rule, LongSupplier retryAfterNanos) {
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

  /**
   * Thrown when a per-value rule refuses a call because one value of an argument is over its
   * limit. See {@link RefusedException} for the common contract.
   *
   * <pre>{@code
   * try {
   *   loadCart.apply(userId);
   * } catch (RefusedException.PerValue refused) {
   *   refused.retryAfter().ifPresent(wait -> response.header("Retry-After", wait.toSeconds() + 1));
   *   audit.note(refused.value());                 // the value itself, for code that asks for it
   * }
   * }</pre>
   *
   * <p>The message names the resource, the rule and the argument index, but never the value: values
   * are often user ids or tokens that do not belong in logs. {@link #value()} gives it to code that
   * asks. Because the value and the wait differ from call to call, each refusal by a per-value
   * rule is its own instance (other refusals share one instance per rule); it has no stack trace
   * and builds its message only when the message is read.
   */
  public static final class PerValue extends RefusedException {

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
    public PerValue(String resource, PerValueRule rule, int argumentIndex,
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
      StringBuilder message = new StringBuilder("per-value limiting refused a call to '")
          .append(resource()).append("' by PerValueRule(argument ").append(rule.argumentIndex())
          .append(", ");
      if (rule.metric() == FlowRule.Metric.CONCURRENCY) {
        message.append(rule.threshold()).append(" running per value");
      } else {
        message.append(rule.threshold()).append(" per ").append(rule.period().toMillis()).append(" ms");
        if (rule.shaping() == FlowRule.Shaping.PACING) {
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

  /**
   * Thrown when a circuit breaker refuses a call: it is open, or half-open with all its probes
   * taken. See {@link RefusedException} for the common contract.
   *
   * <pre>{@code
   * } catch (RefusedException.Breaker refused) {
   *   response.setHeader("Retry-After", String.valueOf(refused.retryAfterMillis() / 1000 + 1));
   * }
   * }</pre>
   *
   * <p>An engine throws the same instance for every refusal by one breaker, so that refusing
   * allocates nothing. {@link #state()} and {@link #retryAfter()} therefore read the breaker when
   * they are called, not when the call was refused: read them while handling the refusal.
   */
  public static final class Breaker extends RefusedException {

    private static final long serialVersionUID = 1L;

    private final transient CircuitBreaker breaker;

    /**
     * Creates the exception for the refusals of one breaker.
     *
     * @param breaker the refusing breaker
     */
    public Breaker(CircuitBreaker breaker) {
      super("a circuit breaker", breaker.resource(), breaker.rule());
      this.breaker = Objects.requireNonNull(breaker, "breaker");
    }

    /**
     * Returns the rule of the breaker that refused the call.
     *
     * @return the refusing rule
     */
    @Override
    public CircuitBreakerRule rule() {
      return (CircuitBreakerRule) super.rule();
    }

    /**
     * Returns the breaker that refused the call, for reading or operator controls.
     *
     * @return the breaker
     */
    public CircuitBreaker breaker() {
      return breaker;
    }

    /**
     * Returns the refusing breaker's state now (usually {@link
     * CircuitBreaker.State#OPEN}, {@link CircuitBreaker.State#HALF_OPEN}
     * or {@link CircuitBreaker.State#FORCED_OPEN}).
     *
     * @return the state
     */
    public CircuitBreaker.State state() {
      return breaker.state();
    }

    /**
     * Returns how long until the refusing breaker lets a probe through; see {@link
     * CircuitBreaker#retryAfter()}. Always present for a breaker (zero once a probe may pass).
     *
     * @return the wait
     */
    @Override
    public Optional<Duration> retryAfter() {
      return super.retryAfter();
    }

    @Override
    long retryAfterNanos() {
      return breaker.retryAfter().toNanos();
    }
  }

  /**
   * Thrown when system protection refuses an inbound call: the engine's inbound traffic as a whole
   * is over a threshold of its (merged) {@link SystemRule}. {@link #limit()} says which threshold.
   * See {@link RefusedException} for the common contract.
   *
   * <pre>{@code
   * catch (RefusedException.SystemProtection overloaded) {
   *   log.warn("shed {}: {} over {}", overloaded.resource(), overloaded.limit(), overloaded.threshold());
   * }
   * }</pre>
   *
   * <p>An engine shares one instance among all refusals of a resource by one threshold, so the
   * exception carries the threshold but not the value measured at one refusal; the engine's
   * inbound statistics and system status report those.
   */
  public static final class SystemProtection extends RefusedException {

    private static final long serialVersionUID = 1L;

    /** The refusing threshold (part of the serialized form). */
    private final SystemRule.Limit limit;

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
    public SystemProtection(String resource, SystemRule rule, SystemRule.Limit limit) {
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
    public SystemProtection(String resource, SystemRule rule, SystemRule.Limit limit,
        LongSupplier retryAfterNanos) {
      super("system protection", resource, rule, describe(rule, limit),
          Objects.requireNonNull(retryAfterNanos, "retryAfterNanos"));
      this.limit = limit;
      this.threshold = Objects.requireNonNull(rule.threshold(limit));
    }

    private static String describe(SystemRule rule, SystemRule.Limit limit) {
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
    public SystemRule.Limit limit() {
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

  /**
   * Thrown when an origin allow or deny list refuses a call; {@link #origin()} names the caller.
   * See {@link RefusedException} for the common contract.
   *
   * <pre>{@code
   * catch (RefusedException.Origin forbidden) {
   *   return Response.status(403).entity("not allowed for " + forbidden.origin());
   * }
   * }</pre>
   */
  public static final class Origin extends RefusedException {

    private static final long serialVersionUID = 1L;

    /** The refused caller's origin (part of the serialized form). */
    private final String origin;

    /**
     * Creates the exception for refusals of one origin.
     *
     * @param resource the resource whose call was refused
     * @param rule the rule that refused it
     * @param origin the caller's origin
     */
    public Origin(String resource, OriginRule rule, String origin) {
      super("origin rule", resource, rule, "origin '" + Objects.requireNonNull(origin, "origin")
          + "'");
      this.origin = origin;
    }

    /**
     * Returns the origin of the refused caller.
     *
     * @return the origin
     */
    public String origin() {
      return origin;
    }

    /**
     * Returns the origin rule that refused the call.
     *
     * @return the refusing rule
     */
    @Override
    public OriginRule rule() {
      return (OriginRule) super.rule();
    }
  }

  /**
   * Thrown when an adaptive concurrency limit refuses a call: as many calls run as the limit
   * allows now. {@link #limit()} reads that limit. See {@link RefusedException} for the common
   * contract.
   *
   * <pre>{@code
   * } catch (RefusedException.AdaptiveConcurrency busy) {
   *   log.info("inventory at its limit of {} calls", busy.limit());
   * }
   * }</pre>
   *
   * <p>An engine throws the same instance for every refusal by one rule, so that refusing
   * allocates nothing; {@link #limit()} therefore reads the rule's limit when it is called, not
   * when the call was refused: read it while handling the refusal. A retry time is never known
   * (a slot frees when a running call ends).
   */
  public static final class AdaptiveConcurrency extends RefusedException {

    private static final long serialVersionUID = 1L;

    private final transient IntSupplier limit;

    /**
     * Creates the exception for the refusals of one rule.
     *
     * @param resource the resource whose call was refused
     * @param rule the rule that refused it
     * @param limit reads the rule's limit in force
     */
    public AdaptiveConcurrency(String resource, AdaptiveConcurrencyRule rule, IntSupplier limit) {
      super("adaptive concurrency", resource, rule);
      this.limit = Objects.requireNonNull(limit, "limit");
    }

    /**
     * Returns the limit in force now: how many calls the rule lets run at once.
     *
     * @return the limit, within the rule's bounds
     */
    public int limit() {
      return limit.getAsInt();
    }

    /**
     * Returns the adaptive concurrency rule that refused the call.
     *
     * @return the refusing rule
     */
    @Override
    public AdaptiveConcurrencyRule rule() {
      return (AdaptiveConcurrencyRule) super.rule();
    }
  }

  /**
   * The kind of protection that refused a call: one constant per {@link RefusedException} subtype.
   * Statistics count refusals per kind ({@link PeriodStats#refused(Kind)}), and the refusal log
   * groups by it.
   */
  public enum Kind {
    /** A flow rule ({@link RefusedException.Flow}). */
    FLOW,
    /** A per-value rule ({@link RefusedException.PerValue}). */
    PER_VALUE,
    /** A circuit breaker ({@link RefusedException.Breaker}). */
    CIRCUIT_BREAKER,
    /** System protection ({@link RefusedException.SystemProtection}). */
    SYSTEM,
    /** An origin allow or deny list ({@link RefusedException.Origin}). */
    ORIGIN,
    /** An adaptive concurrency limit ({@link RefusedException.AdaptiveConcurrency}). */
    ADAPTIVE_CONCURRENCY;


    private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /**
     * Returns the kind of a refusal.
     *
     * @param refusal the refusal
     * @return its kind
     */
    public static Kind of(RefusedException refusal) {
      if (refusal instanceof RefusedException.Flow) {
        return FLOW;
      }
      if (refusal instanceof RefusedException.PerValue) {
        return PER_VALUE;
      }
      if (refusal instanceof RefusedException.Breaker) {
        return CIRCUIT_BREAKER;
      }
      if (refusal instanceof RefusedException.SystemProtection) {
        return SYSTEM;
      }
      if (refusal instanceof RefusedException.AdaptiveConcurrency) {
        return ADAPTIVE_CONCURRENCY;
      }
      return ORIGIN;
    }

    /**
     * Returns the kind's name in lower case with dashes ({@code flow}, {@code per-value}, {@code
     * circuit-breaker}, {@code system}, {@code origin}, {@code adaptive-concurrency}): the value of metric tags and of the history line
     * format.
     *
     * @return the tag value
     */
    public String tag() {
      return tag;
    }
  }
}
