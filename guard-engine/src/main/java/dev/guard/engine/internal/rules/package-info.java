/**
 * The rule book: every rule change of an engine, its history and the listeners' rule events.
 * Not exported.
 */
@NullMarked
package dev.guard.engine.internal.rules;

import org.jspecify.annotations.NullMarked;
