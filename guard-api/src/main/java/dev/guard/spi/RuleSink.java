package dev.guard.spi;

import dev.guard.api.rule.RuleRevision;
import dev.guard.spi.TimeSource;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleError;
import dev.guard.api.rule.RuleSet;
import java.util.List;
import java.util.Optional;

/**
 * The engine's end of a {@link RuleSource}: what the source delivers to. The source owns one
 * {@linkplain #part() part} of the engine's rule set; every delivery replaces that part, and is
 * recorded under the source's name. Thread-safe.
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
   * Returns the part of the engine's rule set the source owns, as attached ({@code
   * GuardEngine#attach}). A source checks its document against it: a document holding a rule
   * outside the part is invalid and goes to {@link #invalid} with the rules' paths.
   *
   * @return the source's part
   */
  RulePart part();

  /**
   * Makes the source's part of the engine's rules exactly {@code rules}, atomically, as one
   * revision; rules outside the part stay as they are.
   *
   * @param rules the part's new rules
   * @return the new revision, or empty if the rules in force were already equal
   * @throws InvalidRulesException if a rule lies outside the part or the engine could not apply
   *     the rules (its listeners heard why; the rules in force did not change)
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
