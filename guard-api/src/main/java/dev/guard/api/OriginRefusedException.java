package dev.guard.api;

import dev.guard.api.rule.OriginRule;
import java.util.Objects;

/**
 * Thrown when an origin white or black list refuses a call; {@link #origin()} names the caller.
 * See {@link RefusedException} for the common contract.
 *
 * <pre>{@code
 * catch (OriginRefusedException forbidden) {
 *   return Response.status(403).entity("not allowed for " + forbidden.origin());
 * }
 * }</pre>
 */
public final class OriginRefusedException extends RefusedException {

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
  public OriginRefusedException(String resource, OriginRule rule, String origin) {
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
