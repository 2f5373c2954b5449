package dev.guard.api.rule;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One rule set an engine applied, as its rule history keeps it: what it was, where it came from,
 * when it took effect and what it changed.
 *
 * <pre>{@code
 * for (RuleRevision revision : engine.ruleHistory()) {
 *   log.info("#{} {} from {}: {}", revision.number(), revision.appliedAt(), revision.source(),
 *       revision.changes());   // "1 added, 1 removed on [search]"
 * }
 * }</pre>
 *
 * @param number the revision number: 1 for the engine's first applied set, then one more for each
 * @param appliedAt when it took effect, by the engine's time source's wall time
 * @param source who applied it: a rule source's name, or {@code GuardEngine.APPLIED} for {@code
 *     GuardEngine.apply}
 * @param rules the whole rule set in force from then on
 * @param added the rules in force from then on that were not before
 * @param removed the rules in force before that are not any more
 * @param changedResources the resources whose rules changed, sorted
 */
public record RuleRevision(long number, Instant appliedAt, String source, RuleSet rules,
    List<Rule> added, List<Rule> removed, Set<String> changedResources) {

  /**
   * Checks the fields and copies the collections.
   *
   * @param number the revision number
   * @param appliedAt when it took effect
   * @param source who applied it
   * @param rules the whole rule set
   * @param added the rules added
   * @param removed the rules removed
   * @param changedResources the resources changed
   * @throws NullPointerException if a field is null
   */
  public RuleRevision {
    Objects.requireNonNull(appliedAt, "appliedAt");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(rules, "rules");
    added = List.copyOf(added);
    removed = List.copyOf(removed);
    changedResources = Collections.unmodifiableSet(new TreeSet<>(changedResources));
  }

  /**
   * Summarizes what changed, for logs and events: {@code "1 added, 1 removed on [search]"}.
   *
   * @return the summary
   */
  public String changes() {
    return added.size() + " added, " + removed.size() + " removed on " + changedResources;
  }
}
