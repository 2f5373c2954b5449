package dev.guard.engine.internal;

import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.api.rule.Rule;
import dev.guard.engine.Cap;
import dev.guard.engine.EngineListener;
import dev.guard.engine.internal.chain.Chain;
import dev.guard.engine.internal.chain.SlotContext;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The resources of one engine, bounded by {@link Cap#RESOURCES}, and their rules. Entering an
 * unknown resource when full yields an untracked resource (admitted without statistics or checks,
 * reported); loading rules for an unknown resource when full throws, so configured protection is
 * never dropped silently. Rule changes compile a new chain under the resource's monitor (never on
 * the call path) and swap it in atomically.
 *
 * <p>Engine-wide rules (system protection) are part of every chain. They change under the
 * registry's engine-wide lock, which then recompiles every resource's chain; a resource is created
 * under the same lock with its first chain already compiled, so no resource created while they
 * change can miss them.
 */
final class ResourceRegistry {

  private final ConcurrentHashMap<String, ResourceState> resources = new ConcurrentHashMap<>();
  private final AtomicInteger size = new AtomicInteger();
  private final EngineConfig config;
  private final Overflows overflows;
  private final List<EngineListener> listeners;
  private final SlotContext slotContext;
  private final Object engineWide = new Object();

  ResourceRegistry(
      EngineConfig config,
      Overflows overflows,
      List<EngineListener> listeners,
      SlotContext slotContext) {
    this.config = config;
    this.overflows = overflows;
    this.listeners = listeners;
    this.slotContext = slotContext;
  }

  /** The state of a resource for entering it; untracked if the registry is full. */
  ResourceState resolve(String name) {
    ResourceState state = resources.get(name);
    if (state != null) {
      return state;
    }
    ResourceState created = create(name);
    if (created == null) {
      overflows.report(Cap.RESOURCES, name);
      return ResourceState.untracked(name);
    }
    return created;
  }

  @Nullable ResourceState existing(String name) {
    return resources.get(name);
  }

  /** Visits every tracked resource with its cluster node (a weakly consistent snapshot). */
  void forEachTracked(java.util.function.BiConsumer<String, ClusterNode> visitor) {
    for (ResourceState state : resources.values()) {
      ClusterNode node = state.cluster();
      if (node != null) {
        visitor.accept(state.name(), node);
      }
    }
  }

  Set<String> names() {
    return Set.copyOf(resources.keySet());
  }

  /**
   * Replaces a resource's rules (creating the resource if needed).
   *
   * @return the state of the resource
   * @throws IllegalStateException if the resource is new and the registry is full
   */
  ResourceState load(String name, List<? extends Rule> rules) {
    return load(name, rules, false);
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
    synchronized (state) {
      Chain old = state.chain();
      List<? extends Rule> wanted = merge ? ChainCompiler.merge(old.rules(), rules) : rules;
      Chain next = ChainCompiler.compile(state.name(), wanted, old, slotContext);
      if (next.rules().equals(old.rules())) {
        return;
      }
      state.swapChain(next);
      previous = old.rules();
      current = next.rules();
    }
    for (EngineListener listener : listeners) {
      try {
        listener.onRulesReplaced(state.name(), previous, current);
      } catch (RuntimeException ignored) {
        // listeners must not break rule loading
      }
    }
  }

  /**
   * Changes the engine-wide rules and recompiles every resource's chain with them.
   *
   * @param change applies the new engine-wide rules under the engine-wide lock; false when they
   *     are unchanged
   */
  void changeEngineWide(BooleanSupplier change) {
    synchronized (engineWide) {
      if (!change.getAsBoolean()) {
        return;
      }
      for (ResourceState state : resources.values()) {
        synchronized (state) {
          Chain old = state.chain();
          state.swapChain(ChainCompiler.compile(state.name(), old.rules(), old, slotContext));
        }
      }
    }
  }

  private @Nullable ResourceState create(String name) {
    if (size.incrementAndGet() > config.maxResources()) {
      size.decrementAndGet();
      return resources.get(name);
    }
    ResourceState fresh =
        ResourceState.tracked(name, config.secondWindow(), config.maxOriginsPerResource());
    ResourceState raced;
    synchronized (engineWide) {
      raced = resources.get(name);
      if (raced == null) {
        fresh.swapChain(ChainCompiler.compile(name, List.of(), Chain.EMPTY, slotContext));
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
