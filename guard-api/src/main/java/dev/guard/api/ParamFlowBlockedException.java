package dev.guard.api;

import dev.guard.api.rule.Rule;

/** Thrown when a hot-parameter rule refuses a call. See {@link BlockedException} for the common contract. */
public final class ParamFlowBlockedException extends BlockedException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception for a refused call.
   *
   * @param resource the resource whose call was refused
   * @param rule the rule that refused it
   */
  public ParamFlowBlockedException(String resource, Rule rule) {
    super("hot-parameter limiting", resource, rule);
  }
}
