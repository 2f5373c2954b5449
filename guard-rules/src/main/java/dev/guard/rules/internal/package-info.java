/**
 * The JSON rule format's machinery: one {@link dev.guard.rules.internal.KindFormat} per rule kind,
 * registered in {@link dev.guard.rules.internal.Kinds}, and the field reader that collects every
 * error with its path. Not exported.
 */
@NullMarked
package dev.guard.rules.internal;

import org.jspecify.annotations.NullMarked;
