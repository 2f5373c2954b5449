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
import java.time.Instant;

/**
 * The whole rule set of an engine, as one immutable value: rules of every kind for every resource
 * (engine-wide rules too). A rules file describes one; {@code GuardEngine.apply} makes an
 * engine's rules exactly one.
 *
 * <pre>{@code
 * RuleSet rules = RuleSet.of(
 *     FlowRule.qps("search", 50),
 *     FlowRule.concurrency("reports", 4),
 *     SystemRule.of().withMaxInboundQps(5000),                        // engine-wide
 *     CircuitBreakerRule.errorRatio(RuleSet.EVERY_RESOURCE, 0.5))     // default breakers
 *     .withDefaultBreakerExclusions(Set.of("healthCheck"));
 * engine.apply(rules);
 * }</pre>
 *
 * <p>Engine-wide rules are part of the set: system rules (resource {@code SystemRule.INBOUND}),
 * and circuit breaker rules of the resource {@value #EVERY_RESOURCE}, the default breakers that
 * every resource without a circuit breaker rule of its own gets (its own breakers, built from
 * these rules), except the resources named by {@link #defaultBreakerExclusions()}.
 *
 * <p>Two sets are equal when they would protect an engine the same way: rules are kept grouped by
 * resource and kind (resources in name order), the rules of one kind of one resource keep the
 * order they were given in (it decides which rule is checked first), and an exact duplicate of a
 * rule is dropped, as an engine drops it.
 */
public final class RuleSet {

  /** The resource name of default rules, which apply to every resource without rules of their kind. */
  public static final String EVERY_RESOURCE = "*";

  private static final RuleSet EMPTY = new RuleSet(List.of(), Set.of());

  private static final Comparator<Rule> CANONICAL =
      Comparator.comparing(Rule::resource).thenComparing(rule -> rule.getClass().getName());

  private final List<Rule> rules;
  private final Set<String> excluded;

  private RuleSet(List<Rule> rules, Set<String> excluded) {
    this.rules = rules;
    this.excluded = excluded;
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
    return new RuleSet(List.copyOf(unique), Set.of());
  }

  /**
   * Creates a rule set.
   *
   * <pre>{@code
   * engine.apply(RuleSet.of(FlowRule.qps("search", 50)));
   * }</pre>
   *
   * @param rules the rules, of any kind and resource
   * @return the set
   * @throws NullPointerException if a rule is null
   */
  public static RuleSet of(Rule... rules) {
    return of(List.of(rules));
  }

  /**
   * Returns this set with the rules of one resource replaced by {@code replacement} (the rules of
   * other resources, and the default breaker exclusions, stay).
   *
   * <pre>{@code
   * engine.apply(engine.ruleSet().withRulesOf("search", List.of(FlowRule.qps("search", 80))));
   * }</pre>
   *
   * @param resource the resource name
   * @param replacement its new rules (empty removes them), all of that resource
   * @return the new set
   * @throws IllegalArgumentException if a rule of {@code replacement} is of another resource
   */
  public RuleSet withRulesOf(String resource, List<? extends Rule> replacement) {
    Objects.requireNonNull(resource, "resource");
    List<Rule> kept = new ArrayList<>();
    for (Rule rule : rules) {
      if (!rule.resource().equals(resource)) {
        kept.add(rule);
      }
    }
    for (Rule rule : replacement) {
      if (!Objects.requireNonNull(rule, "rule").resource().equals(resource)) {
        throw new IllegalArgumentException("rule.resource must be '" + resource + "', was '"
            + rule.resource() + "'");
      }
      kept.add(rule);
    }
    return of(kept).withDefaultBreakerExclusions(excluded);
  }

  /**
   * Returns this set with the resources that get no default breakers (see {@link
   * #EVERY_RESOURCE}) replaced.
   *
   * @param resources the resource names that get no default breakers
   * @return the new set
   */
  public RuleSet withDefaultBreakerExclusions(Set<String> resources) {
    Set<String> names = Collections.unmodifiableSet(new TreeSet<>(resources));
    return names.equals(excluded) ? this : new RuleSet(rules, names);
  }

  /**
   * Returns the resources that get no default breakers.
   *
   * @return the names, sorted; empty if none
   */
  public Set<String> defaultBreakerExclusions() {
    return excluded;
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
   * Tells whether the set has no rule and no default breaker exclusion.
   *
   * @return whether it is empty
   */
  public boolean isEmpty() {
    return rules.isEmpty() && excluded.isEmpty();
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
    return other instanceof RuleSet set && rules.equals(set.rules) && excluded.equals(set.excluded);
  }

  @Override
  public int hashCode() {
    return rules.hashCode() * 31 + excluded.hashCode();
  }

  @Override
  public String toString() {
    return "RuleSet" + rules + (excluded.isEmpty() ? "" : " without default breakers on " + excluded);
  }

  /**
   * One rule set an engine applied, as its rule history keeps it: what it was, where it came from,
   * when it took effect and what it changed.
   *
   * <pre>{@code
   * for (RuleSet.Revision revision : engine.ruleHistory()) {
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
  public record Revision(long number, Instant appliedAt, String source, RuleSet rules,
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
    public Revision {
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
}
