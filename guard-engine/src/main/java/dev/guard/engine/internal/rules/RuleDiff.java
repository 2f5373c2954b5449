package dev.guard.engine.internal.rules;

import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What changed between two rule sets: the rules added, the rules removed (a changed rule is one of
 * each) and the resources whose rules differ.
 *
 * <pre>{@code
 * RuleDiff diff = RuleDiff.between(before, after);
 * diff.toString();   // "1 added, 1 removed on [checkout]"
 * }</pre>
 *
 * @param resources the resources whose rules differ, sorted (a reordering counts)
 * @param added the rules in the new set that the old one lacks
 * @param removed the rules in the old set that the new one lacks
 */
record RuleDiff(Set<String> resources, List<Rule> added, List<Rule> removed) {

  /**
   * Copies the fields.
   *
   * @param resources the resources whose rules differ
   * @param added the rules added
   * @param removed the rules removed
   * @throws NullPointerException if a field is null
   */
  public RuleDiff {
    resources = Collections.unmodifiableSet(new TreeSet<>(resources));
    added = List.copyOf(added);
    removed = List.copyOf(removed);
  }

  /**
   * Computes what changed from one set to another.
   *
   * @param before the old set
   * @param after the new set
   * @return the difference
   */
  public static RuleDiff between(RuleSet before, RuleSet after) {
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
    Set<String> names = new TreeSet<>(before.resources());
    names.addAll(after.resources());
    Set<String> changed = new TreeSet<>();
    List<Rule> added = new ArrayList<>();
    List<Rule> removed = new ArrayList<>();
    for (String name : names) {
      List<Rule> old = before.rulesOf(name);
      List<Rule> now = after.rulesOf(name);
      if (old.equals(now)) {
        continue;
      }
      changed.add(name);
      now.stream().filter(rule -> !old.contains(rule)).forEach(added::add);
      old.stream().filter(rule -> !now.contains(rule)).forEach(removed::add);
    }
    return new RuleDiff(changed, added, removed);
  }

  /**
   * Tells whether nothing changed.
   *
   * @return whether both sets were equal
   */
  public boolean isEmpty() {
    return resources.isEmpty();
  }

  @Override
  public String toString() {
    return added.size() + " added, " + removed.size() + " removed on " + resources;
  }
}
