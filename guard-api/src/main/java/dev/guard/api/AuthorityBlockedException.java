package dev.guard.api;

import dev.guard.api.rule.AuthorityRule;
import java.util.Objects;

/**
 * Thrown when an origin white or black list refuses a call; {@link #origin()} names the caller.
 * See {@link BlockedException} for the common contract.
 *
 * <pre>{@code
 * catch (AuthorityBlockedException forbidden) {
 *   return Response.status(403).entity("not allowed for " + forbidden.origin());
 * }
 * }</pre>
 */
public final class AuthorityBlockedException extends BlockedException {

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
  public AuthorityBlockedException(String resource, AuthorityRule rule, String origin) {
    super("origin authority", resource, rule, "origin '" + Objects.requireNonNull(origin, "origin")
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
   * Returns the authority rule that refused the call.
   *
   * @return the refusing rule
   */
  @Override
  public AuthorityRule rule() {
    return (AuthorityRule) super.rule();
  }
}
