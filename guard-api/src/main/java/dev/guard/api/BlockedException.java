package dev.guard.api;

import dev.guard.api.rule.Rule;
import java.util.Objects;
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
 * } catch (BlockedException e) {
 *   log.info("refused {} by {}", e.resource(), e.rule());
 * }
 * }</pre>
 */
public abstract sealed class BlockedException extends RuntimeException
    permits FlowBlockedException,
        DegradeBlockedException,
        ParamFlowBlockedException,
        SystemBlockedException,
        AuthorityBlockedException {

  private static final long serialVersionUID = 1L;

  /** The name of the refused resource (part of the serialized form). */
  private final String resource;
  private final transient Rule rule;

  BlockedException(String protection, String resource, Rule rule) {
    this(protection, resource, rule, null);
  }

  /** With a detail appended to the message in parentheses, such as the origin that was refused. */
  BlockedException(String protection, String resource, Rule rule, @Nullable String detail) {
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
  }

  /** For a subclass that builds its message only when it is read (it overrides getMessage). */
  BlockedException(String resource, Rule rule) {
    super(null, null, false, false);
    this.resource = Objects.requireNonNull(resource, "resource");
    this.rule = Objects.requireNonNull(rule, "rule");
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
}
