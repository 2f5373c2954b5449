package dev.guard.api.rule;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The whole rule set of an engine, as one immutable value: rules of every kind for every resource
 * (engine-wide rules too). A rules file describes one; {@code GuardEngine.applyRules} makes an
 * engine's rules exactly one.
 *
 * <pre>{@code
 * RuleSet rules = RuleSet.of(List.of(
 *     FlowRule.qps("search", 50),
 *     FlowRule.concurrency("reports", 4)));
 * engine.applyRules(rules, "startup");
 * }</pre>
 *
 * <p>Two sets are equal when they would protect an engine the same way: rules are kept grouped by
 * resource and kind (resources in name order), the rules of one kind of one resource keep the
 * order they were given in (it decides which rule is checked first), and an exact duplicate of a
 * rule is dropped, as an engine drops it.
 */
public final class RuleSet {

  private static final RuleSet EMPTY = new RuleSet(List.of());

  private static final Comparator<Rule> CANONICAL =
      Comparator.comparing(Rule::resource).thenComparing(rule -> rule.getClass().getName());

  private final List<Rule> rules;

  private RuleSet(List<Rule> rules) {
    this.rules = rules;
  }

  /**
   * Creates a rule set.
   *
   * @param rules the rules, of any kind and resource
   * @return the set
   * @throws NullPointerException if {@code rules} or one of its rules is null
   */
  public static RuleSet of(List<? extends Rule> rules) {
    Objects.requireNonNull(rules, "rules");
    List<Rule> unique = new ArrayList<>(new LinkedHashSet<>(rules));
    for (Rule rule : unique) {
      Objects.requireNonNull(rule, "rule");
    }
    unique.sort(CANONICAL); // stable: same resource and kind keep their order
    return new RuleSet(List.copyOf(unique));
  }

  /**
   * Returns the set without rules: applied to an engine, it removes every rule.
   *
   * @return the empty set
   */
  public static RuleSet empty() {
    return EMPTY;
  }

  /**
   * Returns every rule, grouped by resource (in name order) and kind.
   *
   * @return the rules
   */
  public List<Rule> rules() {
    return rules;
  }

  /**
   * Returns the rules of one resource, grouped by kind.
   *
   * @param resource the resource name
   * @return its rules; empty if none
   */
  public List<Rule> rulesOf(String resource) {
    Objects.requireNonNull(resource, "resource");
    List<Rule> own = new ArrayList<>();
    for (Rule rule : rules) {
      if (rule.resource().equals(resource)) {
        own.add(rule);
      }
    }
    return List.copyOf(own);
  }

  /**
   * Returns the rules of one kind.
   *
   * @param kind the rule type, such as {@code FlowRule.class}
   * @param <R> the rule type
   * @return the rules of that kind, grouped by resource
   */
  public <R extends Rule> List<R> rulesOf(Class<R> kind) {
    Objects.requireNonNull(kind, "kind");
    List<R> own = new ArrayList<>();
    for (Rule rule : rules) {
      if (kind.isInstance(rule)) {
        own.add(kind.cast(rule));
      }
    }
    return List.copyOf(own);
  }

  /**
   * Returns the names of the resources that have rules in this set.
   *
   * @return the names, sorted
   */
  public Set<String> resources() {
    Set<String> names = new TreeSet<>();
    for (Rule rule : rules) {
      names.add(rule.resource());
    }
    return Collections.unmodifiableSet(names);
  }

  /**
   * Tells whether the set has no rule.
   *
   * @return whether it is empty
   */
  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /**
   * Returns the number of rules.
   *
   * @return the size
   */
  public int size() {
    return rules.size();
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof RuleSet set && rules.equals(set.rules);
  }

  @Override
  public int hashCode() {
    return rules.hashCode();
  }

  @Override
  public String toString() {
    return "RuleSet" + rules;
  }
}
