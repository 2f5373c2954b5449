package dev.guard.engine;

import dev.guard.api.AuthorityBlockedException;
import dev.guard.api.BlockedException;
import dev.guard.api.DegradeBlockedException;
import dev.guard.api.FlowBlockedException;
import dev.guard.api.ParamFlowBlockedException;
import dev.guard.api.SystemBlockedException;
import java.util.Locale;

/**
 * The kind of protection that refused a call: one constant per {@link BlockedException} subtype.
 * Statistics count refusals per kind ({@link PeriodStats#blocked(BlockKind)}), and the block log
 * groups by it.
 */
public enum BlockKind {
  /** A flow rule ({@link FlowBlockedException}). */
  FLOW,
  /** A hot-parameter rule ({@link ParamFlowBlockedException}). */
  PARAM_FLOW,
  /** A circuit breaker ({@link DegradeBlockedException}). */
  DEGRADE,
  /** System protection ({@link SystemBlockedException}). */
  SYSTEM,
  /** An origin white or black list ({@link AuthorityBlockedException}). */
  AUTHORITY;

  private static final BlockKind[] ALL = values();

  private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

  /**
   * Returns the kind of a refusal.
   *
   * @param refusal the refusal
   * @return its kind
   */
  public static BlockKind of(BlockedException refusal) {
    if (refusal instanceof FlowBlockedException) {
      return FLOW;
    }
    if (refusal instanceof ParamFlowBlockedException) {
      return PARAM_FLOW;
    }
    if (refusal instanceof DegradeBlockedException) {
      return DEGRADE;
    }
    if (refusal instanceof SystemBlockedException) {
      return SYSTEM;
    }
    return AUTHORITY;
  }

  /**
   * Returns the kind's name in lower case with dashes ({@code flow}, {@code param-flow}, {@code
   * degrade}, {@code system}, {@code authority}): the value of metric tags and of the history line
   * format.
   *
   * @return the tag value
   */
  public String tag() {
    return tag;
  }

  static BlockKind ofOrdinal(int ordinal) {
    return ALL[ordinal];
  }
}
