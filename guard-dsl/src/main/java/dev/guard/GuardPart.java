package dev.guard;

import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The declaration of one resource inside a {@link Guard}: its rules and how its calls enter.
 *
 * @param resource the resource name
 * @param flowRules its flow rules, in declaration order
 * @param type the entry type of its calls
 * @param entrance the context name used when the calling thread has no context
 * @param origin the origin used when the calling thread has no context
 * @param prioritized whether calls may borrow from the next window bucket
 */
record GuardPart(
    String resource,
    List<FlowRule> flowRules,
    EntryType type,
    @Nullable String entrance,
    String origin,
    boolean prioritized) {

  GuardPart {
    flowRules = List.copyOf(flowRules);
  }

  static GuardPart of(String resource) {
    return new GuardPart(resource, List.of(), EntryType.OUT, null, "", false);
  }

  GuardPart withRule(FlowRule rule) {
    List<FlowRule> rules = new ArrayList<>(flowRules);
    rules.add(rule);
    return new GuardPart(resource, rules, type, entrance, origin, prioritized);
  }

  GuardPart mapLastRule(String step, UnaryOperator<FlowRule> change) {
    if (flowRules.isEmpty()) {
      throw new IllegalStateException(
          step + " shapes the most recent rule, but '" + resource + "' has none yet: call qps(..) "
              + "or concurrency(..) first");
    }
    List<FlowRule> rules = new ArrayList<>(flowRules);
    rules.set(rules.size() - 1, change.apply(rules.get(rules.size() - 1)));
    return new GuardPart(resource, rules, type, entrance, origin, prioritized);
  }

  GuardPart withType(EntryType newType) {
    return new GuardPart(resource, flowRules, newType, entrance, origin, prioritized);
  }

  GuardPart withEntrance(String newEntrance) {
    return new GuardPart(resource, flowRules, type, newEntrance, origin, prioritized);
  }

  GuardPart withOrigin(String newOrigin) {
    return new GuardPart(resource, flowRules, type, entrance, newOrigin, prioritized);
  }

  GuardPart asPrioritized() {
    return new GuardPart(resource, flowRules, type, entrance, origin, true);
  }
}
