package dev.guard.spi;

import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;

/**
 * A rule source the application can write to: operators' tools and dashboards change the rules by
 * writing a whole set back to where the rules live, and every engine attached to the source picks
 * it up.
 *
 * <pre>{@code
 * WritableRuleSource source = FileRuleSource.of(path);
 * engine.attach(source);
 * source.write(RuleSet.of(List.of(FlowRule.qps("search", 80))));   // applied, then saved
 * }</pre>
 */
public interface WritableRuleSource extends RuleSource {

  /**
   * Writes a whole rule set to the source. When the source is attached to an engine, the set is
   * applied before it is stored, so a set the engine refuses is not stored.
   *
   * @param rules the rule set
   * @throws InvalidRulesException if the attached engine refused the set (nothing was stored)
   * @throws java.io.UncheckedIOException if the set could not be stored
   */
  void write(RuleSet rules);
}
