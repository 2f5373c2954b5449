package dev.guard.engine;

import dev.guard.api.rule.RuleDiff;
import dev.guard.api.rule.RuleSet;
import java.time.Instant;
import java.util.Objects;

/**
 * One rule set an engine applied, as its rule history keeps it: what it was, where it came from,
 * when it took effect and what it changed.
 *
 * <pre>{@code
 * for (RuleRevision revision : engine.ruleHistory()) {
 *   log.info("#{} {} from {}: {}", revision.number(), revision.appliedAt(), revision.source(),
 *       revision.diff());
 * }
 * }</pre>
 *
 * @param number the revision number: 1 for the engine's first applied set, then one more for each
 * @param appliedAt when it took effect, by the engine's time source's wall time
 * @param source who applied it: a rule source's name, or what the caller of {@link
 *     GuardEngine#apply} said
 * @param rules the whole rule set in force from then on
 * @param diff what changed from the rules in force before
 */
public record RuleRevision(
    long number, Instant appliedAt, String source, RuleSet rules, RuleDiff diff) {

  /**
   * Checks the fields.
   *
   * @param number the revision number
   * @param appliedAt when it took effect
   * @param source who applied it
   * @param rules the whole rule set
   * @param diff what changed
   * @throws NullPointerException if a field is null
   */
  public RuleRevision {
    Objects.requireNonNull(appliedAt, "appliedAt");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(rules, "rules");
    Objects.requireNonNull(diff, "diff");
  }
}
