/**
 * Engine internals: the call path (enter, statistics, exit), contexts and the resource registry.
 * Not exported.
 */
@NullMarked
package dev.guard.engine.internal;

import org.jspecify.annotations.NullMarked;
