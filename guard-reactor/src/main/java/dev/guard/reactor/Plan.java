package dev.guard.reactor;

import dev.guard.internal.DetachedCalls;
import org.jspecify.annotations.Nullable;
import reactor.util.context.ContextView;

/**
 * How a guarded publisher's subscriptions enter: the guard's detached calls and where the
 * per-value key comes from (the call site, a context key, or nowhere).
 *
 * @param calls the guard's calls
 * @param key the key given at the call site; null for none
 * @param contextKey the key of the value in the subscriber's context; null for none
 */
record Plan(DetachedCalls calls, @Nullable Object key, @Nullable Object contextKey) {

  /** The call's argument 0 for a subscriber with this context; null for none. */
  @Nullable Object keyOf(ContextView context) {
    if (key != null) {
      return key;
    }
    Object fromContext = contextKey;
    return fromContext == null ? null : context.getOrDefault(fromContext, null);
  }
}
