package dev.guard.engine.internal;

import dev.guard.spi.TimeSource;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleDiff;
import dev.guard.api.rule.RuleError;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.EngineListener;
import dev.guard.engine.RuleRevision;
import dev.guard.engine.internal.system.SystemProtection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Applies whole rule sets to an engine and keeps the history of the last applied ones.
 *
 * <p>Atomicity: a set is checked and compiled for every resource before anything changes; a set
 * that fails anywhere changes nothing. The compiled chains are then staged on their resources
 * and switched on by one volatile write shared by all of them ({@link ResourceState#chain()}
 * reads the staged chain first, then whether it is published, then the plain chain). Every call
 * reads its resource's chain once, so it is decided by the old set or by the new one; and since
 * one write switches every resource, a call that saw the new set on any resource cannot see the
 * old set on another afterwards. Engine-wide rules (system protection) are compiled into every
 * chain, so a set that changes them recompiles every resource and publishes all at once too. Changes of rules (sets, single loads, declarations) hold one lock
 * and so never interleave; the call path takes no lock.
 */
public final class RuleBook {

  private final ResourceRegistry registry;
  private final SystemProtection system;
  private final TimeSource clock;
  private final List<EngineListener> listeners;
  private final int historySize;
  /** Guarded by the registry's rule lock. */
  private final ArrayDeque<RuleRevision> history = new ArrayDeque<>();
  /** Guarded by the registry's rule lock. */
  private long lastNumber;

  RuleBook(ResourceRegistry registry, SystemProtection system, TimeSource clock,
      List<EngineListener> listeners, int history) {
    this.registry = registry;
    this.system = system;
    this.clock = clock;
    this.listeners = listeners;
    this.historySize = history;
  }

  private record Applied(RuleRevision revision, List<ResourceRegistry.Replaced> replaced) {}

  /**
   * Makes the engine's rules exactly {@code rules}.
   *
   * @return the new revision, or empty if the rules in force were already equal
   * @throws InvalidRulesException if the set cannot be applied; listeners hear of it too
   */
  public Optional<RuleRevision> apply(RuleSet rules, String source) {
    Objects.requireNonNull(rules, "rules");
    Objects.requireNonNull(source, "source");
    Applied applied;
    try {
      applied = registry.underRulesLock(() -> applyLocked(rules, source));
    } catch (InvalidRulesException refused) {
      invalid(source, refused.errors());
      throw refused;
    }
    if (applied == null) {
      return Optional.empty();
    }
    registry.notifyReplaced(applied.replaced());
    for (EngineListener listener : listeners) {
      try {
        listener.onRulesApplied(applied.revision());
      } catch (RuntimeException ignored) {
        // listeners must not break rule loading
      }
    }
    return Optional.of(applied.revision());
  }

  private @Nullable Applied applyLocked(RuleSet rules, String source) {
    RuleSet before = currentLocked();
    if (before.equals(rules)) {
      return null;
    }
    List<SystemRule> wantedSystem = rules.rulesOf(SystemRule.class);
    List<Rule> own = new ArrayList<>(rules.rules());
    own.removeIf(SystemRule.class::isInstance);
    RuleSet perResource = RuleSet.of(own);
    registry.createAll(perResource);
    List<SystemRule> previousSystem = system.rules();
    boolean systemChanged = !previousSystem.equals(wantedSystem);
    if (systemChanged) {
      system.load(wantedSystem); // read only by compiling chains, which happens next
    }
    List<ResourceRegistry.Replaced> replaced;
    try {
      replaced = new ArrayList<>(registry.applyAll(perResource, systemChanged));
    } catch (RuntimeException refused) {
      if (systemChanged) {
        system.load(previousSystem);
      }
      throw refused;
    }
    if (systemChanged) {
      replaced.add(new ResourceRegistry.Replaced(
          SystemRule.INBOUND, List.copyOf(previousSystem), List.copyOf(wantedSystem)));
    }
    RuleRevision revision = new RuleRevision(
        ++lastNumber, clock.wallTime(), source, rules, RuleDiff.between(before, rules));
    history.addLast(revision);
    while (history.size() > historySize) {
      history.removeFirst();
    }
    return new Applied(revision, replaced);
  }

  /** Tells listeners that a source could not deliver a valid set. */
  public void invalid(String source, List<RuleError> errors) {
    List<RuleError> copy = List.copyOf(errors);
    for (EngineListener listener : listeners) {
      try {
        listener.onRulesInvalid(source, copy);
      } catch (RuntimeException ignored) {
        // listeners must not break rule loading
      }
    }
  }

  /** The remembered revisions, oldest first. */
  public List<RuleRevision> history() {
    return registry.underRulesLock(() -> List.copyOf(history));
  }

  /** The rules in force now. */
  public RuleSet current() {
    return registry.underRulesLock(this::currentLocked);
  }

  private RuleSet currentLocked() {
    List<Rule> all = registry.resourceRules();
    all.addAll(system.rules());
    return RuleSet.of(all);
  }

  /**
   * Applies a remembered revision's rules again, as a new revision.
   *
   * @throws IllegalArgumentException if the revision is not in the history
   */
  public Optional<RuleRevision> rollBack(long number) {
    RuleRevision target = registry.underRulesLock(() -> find(number));
    return apply(target.rules(), "roll back to #" + number + " (" + target.source() + ")");
  }

  private RuleRevision find(long number) {
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
