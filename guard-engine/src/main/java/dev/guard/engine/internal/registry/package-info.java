/**
 * The resources of an engine and their compiled chains, and the parts every other piece of the
 * engine shares: time, configuration, listeners, cap overflows, internal errors. Not exported.
 */
@NullMarked
package dev.guard.engine.internal.registry;

import org.jspecify.annotations.NullMarked;
