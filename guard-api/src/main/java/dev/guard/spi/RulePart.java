package dev.guard.spi;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.Rule;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The part of an engine's rule set one {@link RuleSource} owns: every rule, the rules of some
 * kinds, or the rules of some resources. The source's deliveries replace exactly its part; the
 * parts of two sources attached to one engine never overlap (docs/BEHAVIOUR.md, "Installing
 * rules").
 *
 * <pre>{@code
 * engine.attach(FileRuleSource.of(Path.of("breakers.json")), RulePart.kinds(CircuitBreakerRule.class));
 * engine.attach(RedisRuleSource.of(client, "guard:rules:search"), RulePart.resources("search"));
 * }</pre>
 *
 * <p>System rules belong to the resource {@code SystemRule.INBOUND}, default circuit breakers
 * (and the resources they exclude) to the resource {@code "*"}. Parts are immutable values.
 */
public final class RulePart {

  private static final RulePart ALL = new RulePart(null, null);

  private final @Nullable Set<Class<? extends Rule>> kinds;
  private final @Nullable Set<String> resources;

  private RulePart(@Nullable Set<Class<? extends Rule>> kinds, @Nullable Set<String> resources) {
    this.kinds = kinds;
    this.resources = resources;
  }

  /**
   * Returns the part holding every rule.
   *
   * @return the whole rule set
   */
  public static RulePart all() {
    return ALL;
  }

  /**
   * Returns the part holding the rules of these kinds, of every resource.
   *
   * @param kinds the rule types, such as {@code FlowRule.class}; at least one
   * @return the part
   * @throws IllegalArgumentException if no kind is given
   */
  @SafeVarargs
  public static RulePart kinds(Class<? extends Rule>... kinds) {
    Set<Class<? extends Rule>> set = new LinkedHashSet<>(List.of(kinds));
    if (set.isEmpty()) {
      throw new IllegalArgumentException("kinds must name at least one rule kind, was none");
    }
    List<Class<? extends Rule>> sorted = new ArrayList<>(set);
    sorted.sort(Comparator.comparing(Class::getName));
    return new RulePart(new LinkedHashSet<>(sorted), null);
  }

  /**
   * Returns the part holding every rule of these resources.
   *
   * @param resources the resource names; at least one
   * @return the part
   * @throws IllegalArgumentException if no resource is given
   */
  public static RulePart resources(String... resources) {
    Set<String> set = new TreeSet<>(List.of(resources));
    if (set.isEmpty()) {
      throw new IllegalArgumentException("resources must name at least one resource, was none");
    }
    return new RulePart(null, set);
  }

  /**
   * Tells whether a rule lies in this part.
   *
   * @param rule the rule
   * @return whether the part holds it
   */
  public boolean contains(Rule rule) {
    Objects.requireNonNull(rule, "rule");
    if (kinds != null) {
      return kinds.contains(rule.getClass());
    }
    return resources == null || resources.contains(rule.resource());
  }

  /**
   * Tells whether the part holds the default circuit breakers and the resources they exclude.
   *
   * @return whether it does
   */
  public boolean holdsDefaultBreakers() {
    if (kinds != null) {
      return kinds.contains(CircuitBreakerRule.class);
    }
    return resources == null || resources.contains("*");
  }

  /**
   * Tells whether some rule could lie in both parts.
   *
   * @param other the other part
   * @return whether they overlap
   */
  public boolean overlaps(RulePart other) {
    if (kinds == null && resources == null || other.kinds == null && other.resources == null) {
      return true;
    }
    if (kinds != null && other.kinds != null) {
      return kinds.stream().anyMatch(other.kinds::contains);
    }
    if (resources != null && other.resources != null) {
      return resources.stream().anyMatch(other.resources::contains);
    }
    return true; // a kind of a resource lies in both
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof RulePart part && Objects.equals(kinds, part.kinds)
        && Objects.equals(resources, part.resources);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kinds, resources);
  }

  @Override
  public String toString() {
    if (kinds != null) {
      List<String> names = new ArrayList<>();
      kinds.forEach(kind -> names.add(kind.getSimpleName()));
      return "RulePart.kinds" + names;
    }
    return resources != null ? "RulePart.resources" + resources : "RulePart.all";
  }
}
