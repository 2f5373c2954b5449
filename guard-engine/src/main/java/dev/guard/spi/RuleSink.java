package dev.guard.spi;

import dev.guard.api.rule.RuleRevision;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleError;
import dev.guard.api.rule.RuleSet;
import java.util.List;
import java.util.Optional;

/**
 * The engine's end of a {@link RuleSource}: what the source delivers to. Every set it applies or
 * refuses is recorded under the source's name. Thread-safe.
 */
public interface RuleSink {

  /**
   * Returns the engine's time source: polling sources wait on it between two looks, with {@link
   * TimeSource#backgroundSleep}, so that a manual clock drives them in tests (a poller then looks
   * again when the test has advanced the clock by its interval, and never moves the clock).
   *
   * @return the engine's time source
   */
  TimeSource clock();

  /**
   * Makes the engine's rules exactly {@code rules}, atomically (see {@code
   * GuardEngine#applyRules}).
   *
   * @param rules the whole new rule set
   * @return the new revision, or empty if the rules in force were already equal
   * @throws InvalidRulesException if the engine refused the set (its listeners heard why; the
   *     rules in force did not change)
   */
  Optional<RuleRevision> apply(RuleSet rules);

  /**
   * Reports that the source could not read a valid rule set: the engine keeps its rules and tells
   * its listeners ({@link EngineListener#onRulesInvalid}).
   *
   * @param errors every reason, each with where the problem is
   */
  void invalid(List<RuleError> errors);
}
