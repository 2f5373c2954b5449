package dev.guard.engine.internal;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleError;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.Cap;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
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
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The resources of one engine, bounded by {@link Cap#RESOURCES}, and their rules. Entering an
 * unknown resource when full runs the call on the one overflow resource ({@link
 * GuardEngine#OVERFLOW_RESOURCE}: its chain, so engine-wide rules and its own rules apply, and its
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
 * <p>Default breaker rules (resource {@code "*"}, applied with the rule set) give breakers to every resource that has no
 * degrade rule of its own and is not excluded. They change like the engine-wide rules: under the
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
final class ResourceRegistry {

  private final ConcurrentHashMap<String, ResourceState> resources = new ConcurrentHashMap<>();
  private final AtomicInteger size = new AtomicInteger();
  private final EngineConfig config;
  private final Overflows overflows;
  private final List<EngineListener> listeners;
  private final SlotContext slotContext;
  private final InternalErrors internalErrors;
  private final List<SlotKind<?>> kinds;
  /** Held by every rule change, so changes apply one at a time. */
  private final Object rulesLock = new Object();
  private volatile List<CircuitBreakerRule> defaultCircuitBreakerRules = List.of();
  private volatile Set<String> excludedFromDefaults = Set.of();
  private volatile @Nullable ResourceState overflow;

  /** The name an engine-wide change is compiled for once besides every resource's. */
  static final String PROBE = "__probe__";

  ResourceRegistry(
      EngineConfig config,
      Overflows overflows,
      List<EngineListener> listeners,
      InternalErrors internalErrors,
      SlotContext slotContext,
      List<SlotKind<?>> kinds) {
    this.config = config;
    this.overflows = overflows;
    this.listeners = listeners;
    this.internalErrors = internalErrors;
    this.slotContext = slotContext;
    this.kinds = List.copyOf(kinds);
  }

  /** The state of a resource for entering it; one sharing the overflow's if the registry is full. */
  ResourceState resolve(String name) {
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
      shared = resources.get(GuardEngine.OVERFLOW_RESOURCE);
      if (shared == null) {
        shared = ResourceState.tracked(GuardEngine.OVERFLOW_RESOURCE, config.secondWindow(),
            config.maxOriginsPerResource());
        shared.swapChain(firstChain(GuardEngine.OVERFLOW_RESOURCE));
        resources.put(GuardEngine.OVERFLOW_RESOURCE, shared);
      }
      overflow = shared;
      return shared;
    }
  }

  @Nullable ResourceState existing(String name) {
    return resources.get(name);
  }

  /** Visits every resource with its cluster node (a weakly consistent snapshot). */
  void forEachTracked(java.util.function.BiConsumer<String, ClusterNode> visitor) {
    for (ResourceState state : resources.values()) {
      visitor.accept(state.name(), state.cluster());
    }
  }

  Set<String> names() {
    return Set.copyOf(resources.keySet());
  }

  /**
   * Declares rules on a resource (creating it if needed): they replace the resource's rules of
   * their kinds; rules of other kinds stay.
   *
   * @return the state of the resource
   * @throws IllegalStateException if the resource is new and the registry is full
   */
  ResourceState declare(String name, List<? extends Rule> rules) {
    return load(name, rules, true);
  }

  private ResourceState load(String name, List<? extends Rule> rules, boolean merge) {
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
    replace(state, rules, merge);
    return state;
  }

  private void replace(ResourceState state, List<? extends Rule> rules, boolean merge) {
    List<Rule> previous;
    List<Rule> current;
    synchronized (rulesLock) {
      Chain old = state.chain();
      List<? extends Rule> wanted = merge ? ChainCompiler.merge(old.rules(), rules) : rules;
      Chain next;
      try {
        next = compile(state.name(), wanted, old);
      } catch (IllegalArgumentException refused) {
        throw refused;
      } catch (RuntimeException failure) {
        RuleError error = internalErrors.uncompilable(state.name(), failure);
        if (merge) {
          return; // a declaration runs on a guard's first call: fail open, keep the old chain
        }
        throw new InvalidRulesException(List.of(error));
      }
      if (next.rules().equals(old.rules())) {
        return;
      }
      state.swapChain(next);
      previous = old.rules();
      current = next.rules();
    }
    notifyReplaced(state.name(), previous, current);
  }

  private void notifyReplaced(String name, List<Rule> previous, List<Rule> current) {
    for (EngineListener listener : listeners) {
      try {
        listener.onRulesReplaced(name, previous, current);
      } catch (RuntimeException ignored) {
        // listeners must not break rule loading
      }
    }
  }

  /** The rules of every resource now (engine-wide ones not included). */
  List<Rule> resourceRules() {
    List<Rule> all = new ArrayList<>();
    for (ResourceState state : resources.values()) {
      all.addAll(state.chain().rules());
    }
    return all;
  }

  /**
   * Makes the rules of every resource exactly those of {@code wanted}, atomically: every changed
   * resource's chain is compiled first (nothing changes if one fails), then all are published at
   * once (see {@link ResourceState#chain()}). The caller holds the rule lock ({@link
   * #underRulesLock}) and tells listeners afterwards ({@link #notifyReplaced(List)}).
   *
   * @param wanted the new rules of the resources (no engine-wide rule)
   * @param everyChain whether to recompile every chain (the engine-wide rules changed)
   * @return the resources whose rules changed
   * @throws InvalidRulesException if a resource's rules do not compile
   */
  List<Replaced> applyAll(RuleSet wanted, boolean everyChain) {
    List<Change> changes = compileAll(wanted, everyChain);
    publish(changes);
    List<Replaced> replaced = new ArrayList<>();
    for (Change change : changes) {
      if (!change.previous.rules().equals(change.next.rules())) {
        replaced.add(new Replaced(change.name, change.previous.rules(), change.next.rules()));
      }
    }
    return replaced;
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

  /** The rules of one resource before and after a change. */
  record Replaced(String resource, List<Rule> previous, List<Rule> current) {}

  /** Tells listeners of each resource whose rules changed. */
  void notifyReplaced(List<Replaced> replaced) {
    for (Replaced change : replaced) {
      notifyReplaced(change.resource(), change.previous(), change.current());
    }
  }

  /** Holds the rule lock while {@code action} runs, so no rule change interleaves with it. */
  <T extends @Nullable Object> T underRulesLock(Supplier<T> action) {
    synchronized (rulesLock) {
      return action.get();
    }
  }

  private record Change(String name, ResourceState state, Chain previous, Chain next) {}

  /**
   * Creates the resources a rule set names that do not exist yet, with the chain they have now
   * (no rules of their own), before anything of the set is compiled.
   *
   * @throws InvalidRulesException if they do not fit under the resource cap
   */
  void createAll(RuleSet wanted) {
    List<String> unknown = new ArrayList<>();
    for (String name : wanted.resources()) {
      if (name.equals(GuardEngine.OVERFLOW_RESOURCE)) {
        overflow();
      } else if (resources.get(name) == null) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty() && size.get() + unknown.size() > config.maxResources()) {
      throw new InvalidRulesException(List.of(new RuleError("rules", "maxResources "
          + config.maxResources() + " reached: cannot add rules for " + unknown.size()
          + " new resources " + unknown)));
    }
    for (String name : unknown) {
      if (create(name) == null) { // raced with entries of unknown resources filling the cap
        overflows.report(Cap.RESOURCES, name);
        throw new InvalidRulesException(List.of(new RuleError(name,
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
    List<RuleError> errors = new ArrayList<>();
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

  /** The default breaker rules and the resources they skip. */
  record Defaults(List<CircuitBreakerRule> rules, Set<String> excluded) {}

  /**
   * Sets the default breaker rules and the resources they skip, without compiling anything: the
   * caller holds the rule lock and recompiles every chain next (or sets the previous ones back).
   *
   * @return the defaults before
   */
  Defaults swapDefaults(Defaults next) {
    Defaults previous = new Defaults(defaultCircuitBreakerRules, excludedFromDefaults);
    defaultCircuitBreakerRules = List.copyOf(next.rules());
    excludedFromDefaults = Set.copyOf(next.excluded());
    return previous;
  }

  Set<String> excludedFromDefaults() {
    return excludedFromDefaults;
  }

  List<CircuitBreakerRule> defaultCircuitBreakerRules() {
    return defaultCircuitBreakerRules;
  }

  private Chain compile(String name, List<? extends Rule> rules, Chain previous) {
    List<CircuitBreakerRule> defaults =
        excludedFromDefaults.contains(name) ? List.of() : defaultCircuitBreakerRules;
    return ChainCompiler.compile(name, rules, defaults, previous, slotContext, kinds);
  }

  /** Why a resource's chain did not compile: its rules were refused, or guard failed (reported). */
  private RuleError refusal(String name, RuntimeException failure) {
    return failure instanceof IllegalArgumentException refused
        ? new RuleError(name, String.valueOf(refused.getMessage()))
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
    if (name.equals(GuardEngine.OVERFLOW_RESOURCE)) {
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
