/**
 * The contracts of guard that every module shares: the {@link dev.guard.api.TimeSource} that all
 * time flows through, the {@link dev.guard.api.BlockedException} family thrown when a protection
 * refuses a call, and {@link dev.guard.api.EntryType}.
 */
@NullMarked
package dev.guard.api;

import org.jspecify.annotations.NullMarked;
