package dev.guard.engine.internal.call;

import dev.guard.engine.internal.registry.ResourceState;
import dev.guard.api.internal.Checks;
import dev.guard.api.EntryType;
import org.jspecify.annotations.Nullable;

/**
 * What is constant about the calls of one call site, resolved once: the resource (so a call needs
 * no name lookup) and how its calls enter.
 *
 * @param resource the resolved resource
 * @param type the entry type
 * @param permits the permits each call takes, {@code >= 0}
 * @param prioritized whether calls may borrow from a future window bucket
 * @param entrance the implicit context's name when the thread has no context (null: default)
 * @param origin the implicit context's origin when the thread has no context
 */
public record CallSite(
    ResourceState resource,
    EntryType type,
    int permits,
    boolean prioritized,
    @Nullable String entrance,
    String origin) {

  /** Validates the permits. */
  public CallSite {
    Checks.nonNegative("permits", permits);
  }

  /** The name of the context the site's calls run in when no context is open on the thread. */
  public String entrance() {
    String name = entrance;
    return name == null ? ContextRegistry.DEFAULT_NAME : name;
  }
}
