package dev.guard.engine.internal.rules;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleDiff;
import dev.guard.api.rule.RuleError;
import dev.guard.api.rule.RuleRevision;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.internal.registry.EngineClock;
import dev.guard.engine.internal.registry.EngineParts;
import dev.guard.engine.internal.registry.Listeners;
import dev.guard.engine.internal.registry.ResourceRegistry;
import dev.guard.engine.internal.registry.ResourceRegistry.Replaced;
import dev.guard.engine.internal.system.SystemProtection;
import dev.guard.spi.EngineListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
 * chain, so a set that changes them recompiles every resource and publishes all at once too. Changes of rules (sets, single loads, declarations) hold one lock
 * and so never interleave; the call path takes no lock.
 *
 * <p>Every rule change enters the engine here, and reaches the registry only from here; the rule
 * book tells the listeners what changed once the change is done.
 */
public final class RuleBook {

  private final ResourceRegistry registry;
  private final SystemProtection system;
  private final EngineClock clock;
  private final Listeners listeners;
  private final int historySize;
  /** Guarded by this. */
  private final ArrayDeque<RuleRevision> history = new ArrayDeque<>();
  /** Guarded by this. */
  private long lastNumber;

  /**
   * Creates the rule book of an engine.
   *
   * @param parts the engine's shared parts
   * @param registry the engine's resources
   */
  public RuleBook(EngineParts parts, ResourceRegistry registry) {
    this.registry = registry;
    this.system = parts.system();
    this.clock = parts.clock();
    this.listeners = parts.listeners();
    this.historySize = parts.config().ruleHistory();
  }

  private record Applied(RuleRevision revision, List<Replaced> replaced) {}

  /**
   * Makes the engine's rules exactly {@code rules}.
   *
   * @param rules the whole rule set
   * @param source who applies it
   * @return the new revision, or empty if the rules in force were already equal
   * @throws InvalidRulesException if the set cannot be applied; listeners hear of it too
   */
  public Optional<RuleRevision> apply(RuleSet rules, String source) {
    Objects.requireNonNull(rules, "rules");
    Objects.requireNonNull(source, "source");
    Applied applied;
    try {
      applied = applyLocked(rules, source);
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

  private synchronized @Nullable Applied applyLocked(RuleSet rules, String source) {
    RuleSet before = registry.ruleSet();
    if (before.equals(rules)) {
      return null;
    }
    List<Rule> own = new ArrayList<>(rules.rules());
    own.removeIf(SystemRule.class::isInstance);
    List<Replaced> replaced =
        registry.apply(RuleSet.of(own), rules.rulesOf(SystemRule.class));
    RuleRevision revision = new RuleRevision(
        ++lastNumber, clock.wallTime(), source, rules, RuleDiff.between(before, rules));
    history.addLast(revision);
    while (history.size() > historySize) {
      history.removeFirst();
    }
    return new Applied(revision, replaced);
  }

  /**
   * Replaces the rules of one resource; identical rules are a no-op.
   *
   * @param name the resource
   * @param rules the new rules
   */
  public void load(String name, List<? extends Rule> rules) {
    Replaced replaced;
    synchronized (this) {
      replaced = registry.replace(name, rules, false);
    }
    tellReplaced(replaced);
  }

  /**
   * Declares rules on a resource: they replace its rules of the kinds they belong to and keep the
   * rest; a declaration that changes nothing is a no-op.
   *
   * @param name the resource
   * @param rules the declared rules
   */
  public void declare(String name, List<? extends Rule> rules) {
    Replaced replaced;
    synchronized (this) {
      replaced = registry.replace(name, rules, true);
    }
    tellReplaced(replaced);
  }

  /**
   * Replaces the engine's system rules and recompiles every resource's chain with their merged
   * rule; identical rules are a no-op. Listeners hear of a change as rules of {@link
   * SystemRule#INBOUND}.
   *
   * @param rules the new system rules (empty switches system protection off)
   */
  public void loadSystemRules(List<SystemRule> rules) {
    Replaced replaced;
    synchronized (this) {
      replaced = registry.changeSystem(rules);
    }
    tellReplaced(replaced);
  }

  /**
   * Replaces the default circuit breaker rules and the resources they do not apply to.
   *
   * @param rules rules with resource {@code "*"}
   * @param excluded resources that get no default breakers
   */
  public synchronized void loadDefaultCircuitBreakerRules(
      List<CircuitBreakerRule> rules, Set<String> excluded) {
    registry.changeDefaults(rules, excluded);
  }

  /** The system rules in force. */
  public List<SystemRule> systemRules() {
    return system.rules();
  }

  /** The default circuit breaker rules in force. */
  public List<CircuitBreakerRule> defaultCircuitBreakerRules() {
    return registry.defaultCircuitBreakerRules();
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
  public void invalid(String source, List<RuleError> errors) {
    listeners.tell(EngineListener::onRulesInvalid, source, List.copyOf(errors));
  }

  /** The remembered revisions, oldest first. */
  public synchronized List<RuleRevision> history() {
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
  public Optional<RuleRevision> rollBack(long number) {
    RuleRevision target = find(number);
    return apply(target.rules(), "roll back to #" + number + " (" + target.source() + ")");
  }

  private synchronized RuleRevision find(long number) {
    for (RuleRevision revision : history) {
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
