/** Origin rules: per-resource white and black lists of caller origins. */
@NullMarked
package dev.guard.engine.internal.origin;

import org.jspecify.annotations.NullMarked;
