/** Immutable events an engine reports to its listeners. */
@NullMarked
package dev.guard.api.event;

import org.jspecify.annotations.NullMarked;
