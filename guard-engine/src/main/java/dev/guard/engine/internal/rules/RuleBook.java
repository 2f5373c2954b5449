package dev.guard.engine.internal.rules;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.internal.registry.EngineClock;
import dev.guard.engine.internal.registry.EngineParts;
import dev.guard.engine.internal.registry.Listeners;
import dev.guard.engine.internal.registry.ResourceRegistry;
import dev.guard.engine.internal.registry.ResourceRegistry.Replaced;
import dev.guard.spi.EngineListener;
import dev.guard.spi.RulePart;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Applies whole rule sets to an engine and keeps the history of the last applied ones.
 *
 * <p>Atomicity: a set is checked and compiled for every resource before anything changes; a set
 * that fails anywhere changes nothing. The compiled chains are then staged on their resources
 * and switched on by one volatile write shared by all of them ({@code ResourceState.chain()}
 * reads the staged chain first, then whether it is published, then the plain chain). Every call
 * reads its resource's chain once, so it is decided by the old set or by the new one; and since
 * one write switches every resource, a call that saw the new set on any resource cannot see the
 * old set on another afterwards. Engine-wide rules (system protection) are compiled into every
 * chain, so a set that changes them recompiles every resource and publishes all at once too;
 * default breaker rules (resource {@code "*"}) are engine-wide in the same way. Changes of rules
 * (sets, sources' parts, declarations) hold one lock and so never interleave; the call path
 * takes no lock.
 *
 * <p>Attached sources own parts of the set ({@link RulePart}); their parts never overlap. A
 * source's delivery replaces its part only, and a guard's declaration leaves out the rules that
 * lie in some source's part.
 *
 * <p>Every rule change enters the engine here, and reaches the registry only from here; the rule
 * book tells the listeners what changed once the change is done.
 */
public final class RuleBook {

  private final ResourceRegistry registry;
  private final EngineClock clock;
  private final Listeners listeners;
  private final int historySize;
  /** Guarded by this. */
  private final ArrayDeque<RuleSet.Revision> history = new ArrayDeque<>();
  /** Guarded by this. */
  private long lastNumber;
  /** The parts of attached sources, with their sources; guarded by this. */
  private final Map<RulePart, Owner> parts = new LinkedHashMap<>();

  private record Owner(Object source, String name) {}

  /**
   * Creates the rule book of an engine.
   *
   * @param parts the engine's shared parts
   * @param registry the engine's resources
   */
  public RuleBook(EngineParts parts, ResourceRegistry registry) {
    this.registry = registry;
    this.clock = parts.clock();
    this.listeners = parts.listeners();
    this.historySize = parts.config().ruleHistory();
  }

  private record Applied(RuleSet.Revision revision, List<Replaced> replaced) {}

  /**
   * Makes the engine's rules exactly {@code rules}.
   *
   * @param rules the whole rule set
   * @param source who applies it
   * @return the new revision, or empty if the rules in force were already equal
   * @throws InvalidRulesException if the set cannot be applied; listeners hear of it too
   */
  public Optional<RuleSet.Revision> apply(RuleSet rules, String source) {
    Objects.requireNonNull(rules, "rules");
    return change(current -> rules, source);
  }

  /**
   * Replaces the part of the rule set an attached source owns with {@code delivered}.
   *
   * @param part the source's part
   * @param delivered the rules the source delivered
   * @param source the source's name
   * @return the new revision, or empty if the rules in force were already equal
   * @throws InvalidRulesException if {@code delivered} holds rules outside the part, or cannot be
   *     applied; listeners hear of it too
   */
  public Optional<RuleSet.Revision> applyPart(RulePart part, RuleSet delivered, String source) {
    Objects.requireNonNull(delivered, "rules");
    List<InvalidRulesException.Error> outside = outside(part, delivered);
    if (!outside.isEmpty()) {
      invalid(source, outside);
      throw new InvalidRulesException(outside);
    }
    return change(current -> merge(current, part, delivered), source);
  }

  /** The errors naming each rule of {@code set} that lies outside {@code part}. */
  private static List<InvalidRulesException.Error> outside(RulePart part, RuleSet set) {
    List<InvalidRulesException.Error> errors = new ArrayList<>();
    for (Rule rule : set.rules()) {
      if (!part.contains(rule)) {
        errors.add(new InvalidRulesException.Error(rule.getClass().getSimpleName() + "[" + rule.resource() + "]",
            "must lie in the source's part " + part + ", was outside it"));
      }
    }
    if (!set.defaultBreakerExclusions().isEmpty() && !part.holdsDefaultBreakers()) {
      errors.add(new InvalidRulesException.Error("defaultBreakerExclusions",
          "must lie in the source's part " + part + ", was outside it"));
    }
    return errors;
  }

  private static RuleSet merge(RuleSet current, RulePart part, RuleSet delivered) {
    List<Rule> rules = new ArrayList<>();
    for (Rule rule : current.rules()) {
      if (!part.contains(rule)) {
        rules.add(rule);
      }
    }
    rules.addAll(delivered.rules());
    return RuleSet.of(rules).withDefaultBreakerExclusions(part.holdsDefaultBreakers()
        ? delivered.defaultBreakerExclusions() : current.defaultBreakerExclusions());
  }

  /**
   * Gives a source a part of the rule set.
   *
   * @param part the part
   * @param source the source object
   * @param name the source's name
   * @return the part the same source was given before (nothing is given then), or empty when the
   *     part was given now
   * @throws IllegalArgumentException if the part overlaps the part of another attached source
   */
  public synchronized Optional<RulePart> attach(RulePart part, Object source, String name) {
    Objects.requireNonNull(part, "part");
    for (Map.Entry<RulePart, Owner> owned : parts.entrySet()) {
      if (owned.getValue().source() == source) {
        return Optional.of(owned.getKey());
      }
    }
    for (Map.Entry<RulePart, Owner> owned : parts.entrySet()) {
      if (owned.getKey().overlaps(part)) {
        throw new IllegalArgumentException("part must not overlap the part of an attached"
            + " source: " + part + " of '" + name + "' overlaps " + owned.getKey() + " of '"
            + owned.getValue().name() + "'");
      }
    }
    parts.put(part, new Owner(source, name));
    return Optional.empty();
  }

  /**
   * Takes a part back from its source (the source could not start).
   *
   * @param part the part
   */
  public synchronized void detach(RulePart part) {
    parts.remove(part);
  }

  private Optional<RuleSet.Revision> change(UnaryOperator<RuleSet> next, String source) {
    Objects.requireNonNull(source, "source");
    Applied applied;
    try {
      applied = changeLocked(next, source);
    } catch (InvalidRulesException refused) {
      invalid(source, refused.errors());
      throw refused;
    }
    if (applied == null) {
      return Optional.empty();
    }
    tellReplaced(applied.replaced());
    listeners.tell(EngineListener::onRulesApplied, applied.revision());
    return Optional.of(applied.revision());
  }

  private synchronized @Nullable Applied changeLocked(UnaryOperator<RuleSet> next, String source) {
    return applyLocked(next.apply(registry.ruleSet()), source);
  }

  private synchronized @Nullable Applied applyLocked(RuleSet rules, String source) {
    RuleSet before = registry.ruleSet();
    if (before.equals(rules)) {
      return null;
    }
    List<CircuitBreakerRule> defaults = new ArrayList<>();
    List<Rule> own = new ArrayList<>();
    for (Rule rule : rules.rules()) {
      if (rule instanceof CircuitBreakerRule breaker
          && rule.resource().equals(RuleSet.EVERY_RESOURCE)) {
        defaults.add(breaker);
      } else if (!(rule instanceof SystemRule)) {
        own.add(rule);
      }
    }
    List<Replaced> replaced = registry.apply(RuleSet.of(own), rules.rulesOf(SystemRule.class),
        defaults, rules.defaultBreakerExclusions());
    RuleDiff diff = RuleDiff.between(before, rules);
    RuleSet.Revision revision = new RuleSet.Revision(++lastNumber, clock.wallTime(), source, rules,
        diff.added(), diff.removed(), diff.resources());
    history.addLast(revision);
    while (history.size() > historySize) {
      history.removeFirst();
    }
    return new Applied(revision, replaced);
  }

  /**
   * Declares a guard's rules on its resource: they replace its rules of the kinds they belong to
   * and keep the rest, leaving out those in an attached source's part; a declaration that changes
   * nothing is a no-op.
   *
   * @param name the resource
   * @param rules the declared rules
   */
  public void declare(String name, List<? extends Rule> rules) {
    Replaced replaced;
    synchronized (this) {
      List<Rule> own = new ArrayList<>();
      for (Rule rule : rules) {
        if (parts.keySet().stream().noneMatch(part -> part.contains(rule))) {
          own.add(rule);
        }
      }
      if (own.isEmpty() && !rules.isEmpty()) {
        return;
      }
      replaced = registry.replace(name, own, true);
    }
    tellReplaced(replaced);
  }

  private void tellReplaced(@Nullable Replaced replaced) {
    if (replaced != null) {
      listeners.tell(EngineListener::onRulesReplaced, replaced.resource(), replaced.previous(),
          replaced.current());
    }
  }

  private void tellReplaced(List<Replaced> replaced) {
    for (Replaced change : replaced) {
      tellReplaced(change);
    }
  }

  /**
   * Tells listeners that a source could not deliver a valid set.
   *
   * @param source the source
   * @param errors what was wrong
   */
  public void invalid(String source, List<InvalidRulesException.Error> errors) {
    listeners.tell(EngineListener::onRulesInvalid, source, List.copyOf(errors));
  }

  /** The remembered revisions, oldest first. */
  public synchronized List<RuleSet.Revision> history() {
    return List.copyOf(history);
  }

  /** The rules in force now. */
  public RuleSet current() {
    return registry.ruleSet();
  }

  /**
   * Applies a remembered revision's rules again, as a new revision.
   *
   * @param number the revision's number
   * @return the new revision, or empty if the rules in force were already equal
   * @throws IllegalArgumentException if the revision is not in the history
   */
  public Optional<RuleSet.Revision> rollBack(long number) {
    RuleSet.Revision target = find(number);
    return apply(target.rules(), "roll back to #" + number + " (" + target.source() + ")");
  }

  private synchronized RuleSet.Revision find(long number) {
    for (RuleSet.Revision revision : history) {
      if (revision.number() == number) {
        return revision;
      }
    }
    String kept = history.isEmpty() ? "none"
        : "#" + history.getFirst().number() + " to #" + history.getLast().number();
    throw new IllegalArgumentException(
        "revision must be in the rule history (" + kept + "), was #" + number);
  }
}
