package dev.guard.api;

import dev.guard.api.rule.Rule;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Thrown when a protection refuses a call: the protected code did not run.
 *
 * <p>Unchecked and sealed: the subclasses name the kind of protection that refused. Every instance
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
 * <p>{@link #retryAfter()} tells how long until a retry could pass, where the refusing rule can
 * tell. Because one instance serves every refusal by a rule, the wait is computed from the rule's
 * state when {@code retryAfter()} is called, not stored at the refusal: read it while handling the
 * refusal. Refusing therefore costs nothing extra; only asking allocates (the {@code Optional}).
 */
public abstract sealed class RefusedException extends RuntimeException
    permits FlowRefusedException,
        CircuitBreakerRefusedException,
        PerValueRefusedException,
        SystemRefusedException,
        OriginRefusedException {

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
   * authority, load and CPU thresholds, a limit of 0). A retry after the wait is not guaranteed to
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
}
