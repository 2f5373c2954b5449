package dev.guard.engine.internal.registry;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.spi.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.internal.system.SystemProtection;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.SlotContext;
import dev.guard.engine.internal.chain.SlotKind;
import dev.guard.engine.internal.node.ClusterNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The resources of one engine, bounded by {@link Cap#RESOURCES}, and their rules. Entering an
 * unknown resource when full runs the call on the one overflow resource ({@link
 * #OVERFLOW_RESOURCE}: its chain, so engine-wide rules and its own rules apply, and its
 * statistics), reported; loading rules for an unknown resource when full throws, so configured
 * protection is never dropped silently. The overflow resource is created on first use and never
 * counts against the cap, so rules can always be loaded for it. Every rule change holds the
 * registry's rule lock (never taken on the call path of a known resource), compiles new chains
 * and publishes them atomically.
 *
 * <p>Engine-wide rules (system protection) are part of every chain. They change under the rule
 * lock, which then recompiles every resource's chain; a resource is created under the same lock
 * with its first chain already compiled, so no resource created while they change can miss them.
 *
 * <p>Default circuit breaker rules (resource {@code "*"}) give breakers to every resource that has no
 * circuit breaker rule of its own and is not excluded. They change like the engine-wide rules: under the
 * rule lock, recompiling every resource's chain and keeping the breakers of unchanged rules.
 *
 * <p>A chain that fails to compile for a reason other than a refusal of its rules (an {@link
 * IllegalArgumentException}) is guard's own failure, reported to {@link
 * EngineListener#onInternalError}: a rule change asked for explicitly is refused with an {@link
 * InvalidRulesException} and changes nothing; a chain compiled on the call path (a resource's
 * first chain, a guard's declaration) fails open: the resource keeps the chain it had, or gets none.
 * Engine-wide changes also compile a chain for no resource ({@link #PROBE}), so a change that no
 * resource could compile is refused even before the first resource exists.
 */
public final class ResourceRegistry {

  /** The name of the resource that runs calls of unknown resources once the registry is full. */
  public static final String OVERFLOW_RESOURCE = "{resource overflow}";

  private final ConcurrentHashMap<String, ResourceState> resources = new ConcurrentHashMap<>();
  private final AtomicInteger size = new AtomicInteger();
  private final EngineConfig config;
  private final Overflows overflows;
  private final SystemProtection system;
  private final SlotContext slotContext;
  private final InternalErrors internalErrors;
  private final List<SlotKind<?>> kinds;
  /** Held by every rule change, so changes apply one at a time. */
  private final Object rulesLock = new Object();
  private volatile List<CircuitBreakerRule> defaultCircuitBreakerRules = List.of();
  private volatile Set<String> excludedFromDefaults = Set.of();
  private volatile @Nullable ResourceState overflow;

  /** The name an engine-wide change is compiled for once besides every resource's. */
  public static final String PROBE = "__probe__";

  public ResourceRegistry(EngineParts parts, List<SlotKind<?>> kinds) {
    this.config = parts.config();
    this.overflows = parts.overflows();
    this.internalErrors = parts.internalErrors();
    this.system = parts.system();
    this.kinds = List.copyOf(kinds);
    this.slotContext = new SlotServices(parts, this);
  }

  /** The state of a resource for entering it; one sharing the overflow's if the registry is full. */
  public ResourceState resolve(String name) {
    ResourceState state = resources.get(name);
    if (state != null) {
      return state;
    }
    ResourceState created = create(name);
    if (created == null) {
      overflows.report(Cap.RESOURCES, name);
      return ResourceState.sharing(name, overflow());
    }
    return created;
  }

  /** The overflow resource, created (outside the cap) on first use. */
  private ResourceState overflow() {
    ResourceState shared = overflow;
    if (shared != null) {
      return shared;
    }
    synchronized (rulesLock) {
      shared = resources.get(OVERFLOW_RESOURCE);
      if (shared == null) {
        shared = ResourceState.tracked(OVERFLOW_RESOURCE, config.secondWindow(),
            config.maxOriginsPerResource());
        shared.swapChain(firstChain(OVERFLOW_RESOURCE));
        resources.put(OVERFLOW_RESOURCE, shared);
      }
      overflow = shared;
      return shared;
    }
  }

  public @Nullable ResourceState existing(String name) {
    return resources.get(name);
  }

  /** Visits every resource with its cluster node (a weakly consistent snapshot). */
  public void forEachTracked(java.util.function.Consumer<ResourceState> visitor) {
    for (ResourceState state : resources.values()) {
      visitor.accept(state);
    }
  }

  public Set<String> names() {
    return Set.copyOf(resources.keySet());
  }

  /**
   * Replaces the rules of one resource, or merges declared rules into them (replacing the rules of
   * the kinds they belong to and keeping the rest), creating the resource if needed.
   *
   * @param name the resource
   * @param rules the new or declared rules
   * @param merge whether the rules are a declaration to merge
   * @return what changed, or null when nothing did
   * @throws IllegalStateException if the resource is new and the registry is full
   */
  public @Nullable Replaced replace(String name, List<? extends Rule> rules, boolean merge) {
    Objects.requireNonNull(rules, "rules");
    ResourceState state = resources.get(name);
    if (state == null) {
      state = create(name);
      if (state == null) {
        overflows.report(Cap.RESOURCES, name);
        throw new IllegalStateException(
            "maxResources " + config.maxResources() + " reached; cannot add rules for '"
                + name + "'");
      }
    }
    synchronized (rulesLock) {
      Chain old = state.chain();
      List<? extends Rule> wanted =
          merge ? ChainCompiler.merge(old.rules(), rules, kinds) : rules;
      Chain next;
      try {
        next = compile(state.name(), wanted, old);
      } catch (IllegalArgumentException refused) {
        throw refused;
      } catch (RuntimeException failure) {
        InvalidRulesException.Error error = internalErrors.uncompilable(state.name(), failure);
        if (merge) {
          return null; // a declaration runs on a guard's first call: fail open, keep the old chain
        }
        throw new InvalidRulesException(List.of(error));
      }
      if (next.rules().equals(old.rules())) {
        return null;
      }
      state.swapChain(next);
      return new Replaced(state.name(), old.rules(), next.rules());
    }
  }

  /**
   * Applies a whole rule set: creates its resources, swaps in its system rules, compiles every
   * chain whose rules change (every chain when the system rules change) and publishes them all with
   * one write, so no call sees half of the set.
   *
   * @param perResource the rules of every resource (no system rules)
   * @param wantedSystem the system rules
   * @param wantedDefaults the default circuit breaker rules (resource {@code "*"})
   * @param wantedExcluded the resources that get no default breakers
   * @return the resources whose rules changed, and {@link SystemRule#INBOUND} if the system rules
   *     did
   * @throws InvalidRulesException if a chain does not compile; no chain changed then
   */
  public List<Replaced> apply(RuleSet perResource, List<SystemRule> wantedSystem,
      List<CircuitBreakerRule> wantedDefaults, Set<String> wantedExcluded) {
    synchronized (rulesLock) {
      createAll(perResource);
      List<SystemRule> previousSystem = system.rules();
      boolean systemChanged = !previousSystem.equals(wantedSystem);
      List<CircuitBreakerRule> previousDefaults = defaultCircuitBreakerRules;
      Set<String> previousExcluded = excludedFromDefaults;
      boolean defaultsChanged = !previousDefaults.equals(wantedDefaults)
          || !previousExcluded.equals(wantedExcluded);
      if (systemChanged) {
        system.load(wantedSystem); // read only by compiling chains, which happens next
      }
      defaultCircuitBreakerRules = List.copyOf(wantedDefaults);
      excludedFromDefaults = Set.copyOf(wantedExcluded);
      List<Change> changes;
      try {
        changes = compileAll(perResource, systemChanged || defaultsChanged);
      } catch (RuntimeException refused) {
        if (systemChanged) {
          system.load(previousSystem);
        }
        defaultCircuitBreakerRules = previousDefaults;
        excludedFromDefaults = previousExcluded;
        throw refused;
      }
      publish(changes);
      List<Replaced> replaced = new ArrayList<>();
      for (Change change : changes) {
        if (!change.previous.rules().equals(change.next.rules())) {
          replaced.add(new Replaced(change.name, change.previous.rules(), change.next.rules()));
        }
      }
      if (systemChanged) {
        replaced.add(new Replaced(
            SystemRule.INBOUND, List.copyOf(previousSystem), List.copyOf(wantedSystem)));
      }
      if (!previousDefaults.equals(wantedDefaults)) {
        replaced.add(new Replaced(RuleSet.EVERY_RESOURCE, List.copyOf(previousDefaults),
            List.copyOf(wantedDefaults)));
      }
      return replaced;
    }
  }

  /**
   * The rules in force: every resource's and the system rules, read under the rule lock.
   *
   * @return the rule set
   */
  public RuleSet ruleSet() {
    synchronized (rulesLock) {
      List<Rule> all = new ArrayList<>();
      for (ResourceState state : resources.values()) {
        all.addAll(state.chain().rules());
      }
      all.addAll(system.rules());
      all.addAll(defaultCircuitBreakerRules);
      return RuleSet.of(all).withDefaultBreakerExclusions(excludedFromDefaults);
    }
  }

  /**
   * The rules of one resource before and after a change.
   *
   * @param resource the resource
   * @param previous its rules before
   * @param current its rules after
   */
  public record Replaced(String resource, List<Rule> previous, List<Rule> current) {}

  private record Change(String name, ResourceState state, Chain previous, Chain next) {}

  /**
   * Creates the resources a rule set names that do not exist yet, with the chain they have now
   * (no rules of their own), before anything of the set is compiled.
   *
   * @throws InvalidRulesException if they do not fit under the resource cap
   */
  private void createAll(RuleSet wanted) {
    List<String> unknown = new ArrayList<>();
    for (String name : wanted.resources()) {
      if (name.equals(OVERFLOW_RESOURCE)) {
        overflow();
      } else if (resources.get(name) == null) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty() && size.get() + unknown.size() > config.maxResources()) {
      throw new InvalidRulesException(List.of(new InvalidRulesException.Error("rules", "maxResources "
          + config.maxResources() + " reached: cannot add rules for " + unknown.size()
          + " new resources " + unknown)));
    }
    for (String name : unknown) {
      if (create(name) == null) { // raced with entries of unknown resources filling the cap
        overflows.report(Cap.RESOURCES, name);
        throw new InvalidRulesException(List.of(new InvalidRulesException.Error(name,
            "maxResources " + config.maxResources() + " reached; cannot add rules for it")));
      }
    }
  }
  private List<Change> compileAll(RuleSet wanted, boolean everyChain) {
    Set<String> names = new TreeSet<>(wanted.resources());
    for (ResourceState state : resources.values()) {
      if (everyChain || !state.chain().rules().isEmpty()) {
        names.add(state.name());
      }
    }
    List<InvalidRulesException.Error> errors = new ArrayList<>();
    List<Change> changes = new ArrayList<>();
    for (String name : names) {
      List<Rule> rules = wanted.rulesOf(name);
      ResourceState state = Objects.requireNonNull(resources.get(name), name);
      Chain old = state.chain();
      if (!everyChain && old.rules().equals(rules)) {
        continue;
      }
      try {
        Chain next = compile(name, rules, old);
        if (everyChain || !next.rules().equals(old.rules())) {
          changes.add(new Change(name, state, old, next));
        }
      } catch (RuntimeException failure) {
        errors.add(refusal(name, failure));
      }
    }
    if (everyChain) {
      try {
        compile(PROBE, List.of(), Chain.EMPTY);
      } catch (RuntimeException failure) {
        errors.add(refusal(PROBE, failure));
      }
    }
    if (!errors.isEmpty()) {
      throw new InvalidRulesException(errors);
    }
    return changes;
  }
  /** Stages every new chain, publishes them all with one write, then makes them current. */
  private static void publish(List<Change> changes) {
    ResourceState.Publication publication = new ResourceState.Publication();
    for (Change change : changes) {
      change.state.stage(change.next, publication);
    }
    publication.published = true; // the one write that switches every resource
    for (Change change : changes) {
      change.state.commitStaged();
    }
  }
  /** The default circuit breaker rules in force. */
  public List<CircuitBreakerRule> defaultCircuitBreakerRules() {
    return defaultCircuitBreakerRules;
  }

  private Chain compile(String name, List<? extends Rule> rules, Chain previous) {
    List<CircuitBreakerRule> defaults =
        excludedFromDefaults.contains(name) ? List.of() : defaultCircuitBreakerRules;
    return ChainCompiler.compile(name, rules, defaults, previous, slotContext, kinds);
  }

  /** Why a resource's chain did not compile: its rules were refused, or guard failed (reported). */
  private InvalidRulesException.Error refusal(String name, RuntimeException failure) {
    return failure instanceof IllegalArgumentException refused
        ? new InvalidRulesException.Error(name, String.valueOf(refused.getMessage()))
        : internalErrors.uncompilable(name, failure);
  }

  /**
   * A resource's first chain, compiled on the call path: a failure fails open (the resource has
   * no protection until its rules change) and is reported.
   */
  private Chain firstChain(String name) {
    try {
      return compile(name, List.of(), Chain.EMPTY);
    } catch (RuntimeException failure) {
      internalErrors.report(name, failure);
      return Chain.EMPTY;
    }
  }

  private @Nullable ResourceState create(String name) {
    if (name.equals(OVERFLOW_RESOURCE)) {
      return overflow();
    }
    if (size.incrementAndGet() > config.maxResources()) {
      size.decrementAndGet();
      return resources.get(name);
    }
    ResourceState fresh =
        ResourceState.tracked(name, config.secondWindow(), config.maxOriginsPerResource());
    ResourceState raced;
    synchronized (rulesLock) {
      raced = resources.get(name);
      if (raced == null) {
        fresh.swapChain(firstChain(name));
        raced = resources.putIfAbsent(name, fresh);
      }
    }
    if (raced != null) {
      size.decrementAndGet();
      return raced;
    }
    return fresh;
  }
}
