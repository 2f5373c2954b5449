/**
 * Guarding Reactor publishers: {@link dev.guard.reactor.GuardedPublishers} turns a {@code Mono}
 * or {@code Flux} into one whose every subscription is a call of a {@code Guard} (see
 * docs/REACTOR.md).
 */
@NullMarked
package dev.guard.reactor;

import org.jspecify.annotations.NullMarked;
