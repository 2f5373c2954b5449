/**
 * Per-value limits: the slot that limits a resource's calls per value of one argument, with a
 * token bucket, a pacing schedule or a concurrency counter per value, kept in bounded tables.
 */
@NullMarked
package dev.guard.engine.internal.pervalue;

import org.jspecify.annotations.NullMarked;
