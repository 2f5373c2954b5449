package dev.guard;

import dev.guard.api.EntryType;
import dev.guard.api.rule.Rule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The declaration of one resource inside a {@link Guard}: its rules of every kind and how its
 * calls enter.
 *
 * @param resource the resource name
 * @param rules its rules, in declaration order
 * @param type the entry type of its calls
 * @param entrance the entrance used when the calling thread has no context
 * @param origin the origin used when the calling thread has no context
 * @param prioritized whether calls may borrow from the next window bucket
 * @param tracing which exceptions and results of the code count as failures
 * @param timeout the longest an asynchronous call may take, or null for no bound
 */
record GuardPart(
    String resource,
    List<Rule> rules,
    EntryType type,
    @Nullable String entrance,
    String origin,
    boolean prioritized,
    ErrorTracing tracing,
    @Nullable Duration timeout) {

  GuardPart {
    rules = List.copyOf(rules);
  }

  static GuardPart of(String resource) {
    return new GuardPart(
        resource, List.of(), EntryType.OUT, null, "", false, ErrorTracing.ALL, null);
  }

  GuardPart withRule(Rule rule) {
    List<Rule> more = new ArrayList<>(rules);
    more.add(rule);
    return new GuardPart(resource, more, type, entrance, origin, prioritized, tracing, timeout);
  }

  /**
   * Changes the most recent rule, which the stage calling this knows to be of {@code kind}.
   *
   * @throws IllegalStateException if the most recent rule is of another kind (a stage was built
   *     on the wrong rule, which is a bug in the DSL)
   */
  <R extends Rule> GuardPart mapLastRule(Class<R> kind, UnaryOperator<R> change) {
    Rule last = lastRule();
    if (!kind.isInstance(last)) {
      throw new IllegalStateException("a " + kind.getSimpleName() + " stage of '" + resource
          + "' has " + last + " as its most recent rule");
    }
    List<Rule> changed = new ArrayList<>(rules);
    changed.set(changed.size() - 1, change.apply(kind.cast(last)));
    return new GuardPart(resource, changed, type, entrance, origin, prioritized, tracing, timeout);
  }

  /** The most recent rule, or null if there is none yet. */
  @Nullable Rule lastRule() {
    return rules.isEmpty() ? null : rules.get(rules.size() - 1);
  }

  <R extends Rule> List<R> rulesOf(Class<R> kind) {
    List<R> own = new ArrayList<>();
    for (Rule rule : rules) {
      if (kind.isInstance(rule)) {
        own.add(kind.cast(rule));
      }
    }
    return own;
  }

  GuardPart withType(EntryType newType) {
    return new GuardPart(resource, rules, newType, entrance, origin, prioritized, tracing, timeout);
  }

  GuardPart withEntrance(String newEntrance) {
    return new GuardPart(resource, rules, type, newEntrance, origin, prioritized, tracing, timeout);
  }

  GuardPart withOrigin(String newOrigin) {
    return new GuardPart(resource, rules, type, entrance, newOrigin, prioritized, tracing, timeout);
  }

  GuardPart withTracing(ErrorTracing newTracing) {
    return new GuardPart(resource, rules, type, entrance, origin, prioritized, newTracing, timeout);
  }

  GuardPart withTimeout(Duration newTimeout) {
    return new GuardPart(resource, rules, type, entrance, origin, prioritized, tracing, newTimeout);
  }

  GuardPart asPrioritized() {
    return new GuardPart(resource, rules, type, entrance, origin, true, tracing, timeout);
  }
}
