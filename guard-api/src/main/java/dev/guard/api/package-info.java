/**
 * The contracts of guard that every module shares: the {@link dev.guard.api.RefusedException} family thrown when a protection
 * refuses a call, and {@link dev.guard.api.EntryType}.
 */
@NullMarked
package dev.guard.api;

import org.jspecify.annotations.NullMarked;
