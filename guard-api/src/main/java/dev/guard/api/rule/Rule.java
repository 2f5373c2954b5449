package dev.guard.api.rule;

/**
 * An immutable protection rule for one resource ({@link SystemRule}s cover the inbound traffic of
 * a whole engine instead). Rules are values: equal rules are interchangeable, and loading an equal
 * rule again keeps the state (tokens, schedules) an engine built for it.
 */
public interface Rule {

  /**
   * Returns the name of the resource the rule protects.
   *
   * @return the resource name, never blank
   */
  String resource();
}
