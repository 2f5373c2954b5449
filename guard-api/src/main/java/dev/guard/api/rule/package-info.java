/**
 * Immutable rule values. Each rule validates itself in its constructor and throws {@link
 * IllegalArgumentException} naming the offending field and value, so an invalid rule never
 * reaches an engine.
 */
@NullMarked
package dev.guard.api.rule;

import org.jspecify.annotations.NullMarked;
