/**
 * What an engine remembers of its traffic: the per-second metrics history and the refusal log.
 * Not exported.
 */
@NullMarked
package dev.guard.engine.internal.telemetry;

import org.jspecify.annotations.NullMarked;
