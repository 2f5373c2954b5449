package dev.guard.api;

import dev.guard.api.rule.Rule;

/** Thrown when an origin white or black list refuses a call. See {@link BlockedException} for the common contract. */
public final class AuthorityBlockedException extends BlockedException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception for a refused call.
   *
   * @param resource the resource whose call was refused
   * @param rule the rule that refused it
   */
  public AuthorityBlockedException(String resource, Rule rule) {
    super("origin authority", resource, rule);
  }
}
