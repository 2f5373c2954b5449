/**
 * The guard demo: five guarded endpoints of a pretend shop under generated load, with a live
 * per-second table, a terminal chart and a summary. {@code Demo} is the main class. The classes
 * are small on purpose so each can be read on its own; the counting and rendering parts are pure
 * and unit-tested.
 */
@NullMarked
package dev.guard.examples;

import org.jspecify.annotations.NullMarked;
