package dev.guard.engine.internal;

import dev.guard.spi.TimeSource;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleError;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.EngineListener;
import dev.guard.spi.RulePart;
import dev.guard.engine.RuleRevision;
import dev.guard.engine.internal.system.SystemProtection;
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
 * and switched on by one volatile write shared by all of them ({@link ResourceState#chain()}
 * reads the staged chain first, then whether it is published, then the plain chain). Every call
 * reads its resource's chain once, so it is decided by the old set or by the new one; and since
 * one write switches every resource, a call that saw the new set on any resource cannot see the
 * old set on another afterwards. Engine-wide rules (system protection) are compiled into every
 * chain, so a set that changes them recompiles every resource and publishes all at once too.
 * Default breaker rules (resource {@code "*"}) are engine-wide in the same way. Changes of rules
 * (sets, sources' parts, declarations) hold one lock and so never interleave; the call path
 * takes no lock.
 *
 * <p>Attached sources own parts of the set ({@link RulePart}); their parts never overlap. A
 * source's delivery replaces its part only, and a guard's declaration leaves out the rules that
 * lie in some source's part.
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
  /** The parts of attached sources, with their sources; guarded by the registry's rule lock. */
  private final Map<RulePart, Owner> parts = new LinkedHashMap<>();

  private record Owner(Object source, String name) {}

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
    return change(current -> rules, source);
  }

  /**
   * Replaces the part of the rule set an attached source owns with {@code delivered}.
   *
   * @return the new revision, or empty if the rules in force were already equal
   * @throws InvalidRulesException if {@code delivered} holds rules outside the part, or cannot be
   *     applied; listeners hear of it too
   */
  public Optional<RuleRevision> applyPart(RulePart part, RuleSet delivered, String source) {
    Objects.requireNonNull(delivered, "rules");
    List<RuleError> outside = outside(part, delivered);
    if (!outside.isEmpty()) {
      reject(source, outside);
      throw new InvalidRulesException(outside);
    }
    return change(current -> merge(current, part, delivered), source);
  }

  /** The errors naming each rule of {@code set} that lies outside {@code part}. */
  public static List<RuleError> outside(RulePart part, RuleSet set) {
    List<RuleError> errors = new ArrayList<>();
    for (Rule rule : set.rules()) {
      if (!part.contains(rule)) {
        errors.add(new RuleError(rule.getClass().getSimpleName() + "[" + rule.resource() + "]",
            "must lie in the source's part " + part + ", was outside it"));
      }
    }
    if (!set.defaultBreakerExclusions().isEmpty() && !part.holdsDefaultBreakers()) {
      errors.add(new RuleError("defaultBreakerExclusions",
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
   * @param source the source object
   * @param name the source's name
   * @return the part the same source was given before (nothing is given then: starting the
   *     source again is refused by the source itself), or empty when the part was given now
   * @throws IllegalArgumentException if the part overlaps the part of another attached source
   */
  public Optional<RulePart> attach(RulePart part, Object source, String name) {
    Objects.requireNonNull(part, "part");
    return registry.underRulesLock(() -> {
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
      return Optional.<RulePart>empty();
    });
  }

  /** Takes a part back from its source (the source could not start). */
  public void detach(RulePart part) {
    registry.underRulesLock(() -> parts.remove(part));
  }

  /**
   * Declares a guard's rules on its resource, leaving out those in an attached source's part.
   */
  public void declare(String name, List<? extends Rule> rules) {
    registry.underRulesLock(() -> {
      List<Rule> own = new ArrayList<>();
      for (Rule rule : rules) {
        if (parts.keySet().stream().noneMatch(part -> part.contains(rule))) {
          own.add(rule);
        }
      }
      if (!own.isEmpty() || rules.isEmpty()) {
        registry.declare(name, own);
      }
      return null;
    });
  }

  private Optional<RuleRevision> change(UnaryOperator<RuleSet> next, String source) {
    Objects.requireNonNull(source, "source");
    Applied applied;
    try {
      applied = registry.underRulesLock(() -> applyLocked(next.apply(currentLocked()), source));
    } catch (InvalidRulesException refused) {
      reject(source, refused.errors());
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
    List<CircuitBreakerRule> wantedDefaults = new ArrayList<>();
    List<Rule> own = new ArrayList<>();
    for (Rule rule : rules.rules()) {
      if (rule instanceof CircuitBreakerRule breaker && isEveryResource(rule)) {
        wantedDefaults.add(breaker);
      } else if (!(rule instanceof SystemRule)) {
        own.add(rule);
      }
    }
    RuleSet perResource = RuleSet.of(own);
    registry.createAll(perResource);
    List<SystemRule> previousSystem = system.rules();
    boolean systemChanged = !previousSystem.equals(wantedSystem);
    ResourceRegistry.Defaults wanted =
        new ResourceRegistry.Defaults(wantedDefaults, rules.defaultBreakerExclusions());
    ResourceRegistry.Defaults previousDefaults = registry.swapDefaults(wanted);
    boolean defaultsChanged = !previousDefaults.rules().equals(wanted.rules())
        || !previousDefaults.excluded().equals(wanted.excluded());
    if (systemChanged) {
      system.load(wantedSystem); // read only by compiling chains, which happens next
    }
    List<ResourceRegistry.Replaced> replaced;
    try {
      replaced = new ArrayList<>(registry.applyAll(perResource, systemChanged || defaultsChanged));
    } catch (RuntimeException refused) {
      if (systemChanged) {
        system.load(previousSystem);
      }
      registry.swapDefaults(previousDefaults);
      throw refused;
    }
    if (systemChanged) {
      replaced.add(new ResourceRegistry.Replaced(
          SystemRule.INBOUND, List.copyOf(previousSystem), List.copyOf(wantedSystem)));
    }
    if (!previousDefaults.rules().equals(wanted.rules())) {
      replaced.add(new ResourceRegistry.Replaced(RuleSet.EVERY_RESOURCE,
          List.copyOf(previousDefaults.rules()), List.copyOf(wanted.rules())));
    }
    RuleDiff diff = RuleDiff.between(before, rules);
    RuleRevision revision = new RuleRevision(
        ++lastNumber, clock.wallTime(), source, rules, diff.added(), diff.removed(),
        diff.resources());
    history.addLast(revision);
    while (history.size() > historySize) {
      history.removeFirst();
    }
    return new Applied(revision, replaced);
  }

  /** Tells listeners that a source could not deliver a valid set. */
  public void reject(String source, List<RuleError> errors) {
    List<RuleError> copy = List.copyOf(errors);
    for (EngineListener listener : listeners) {
      try {
        listener.onRulesRejected(source, copy);
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
    all.addAll(registry.defaultCircuitBreakerRules());
    return RuleSet.of(all).withDefaultBreakerExclusions(registry.excludedFromDefaults());
  }

  private static boolean isEveryResource(Rule rule) {
    return rule.resource().equals(RuleSet.EVERY_RESOURCE);
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
