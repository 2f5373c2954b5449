package dev.guard.reactor;

import dev.guard.internal.DetachedCalls;
import org.jspecify.annotations.Nullable;
import reactor.util.context.ContextView;

/**
 * How a guarded publisher's subscriptions enter: the guard's detached calls and where the
 * arguments for per-value rules come from (the call site, a context key, or nowhere).
 *
 * @param calls the guard's calls
 * @param arguments the arguments given at the call site; null for none
 * @param contextKey the key of argument 0 in the subscriber's context; null for none
 */
record Plan(DetachedCalls calls, @Nullable Object @Nullable [] arguments,
    @Nullable Object contextKey) {

  private static final @Nullable Object[] NONE = {};

  /** The call's arguments for a subscriber with this context; empty for none. */
  @Nullable Object[] argumentsOf(ContextView context) {
    @Nullable Object[] given = arguments;
    if (given != null) {
      return given;
    }
    Object fromContext = contextKey;
    Object value = fromContext == null ? null : context.getOrDefault(fromContext, null);
    return value == null ? NONE : new @Nullable Object[] {value};
  }
}
