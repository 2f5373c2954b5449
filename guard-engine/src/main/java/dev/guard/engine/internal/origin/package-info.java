/** Origin rules: per-resource allow and deny lists of caller origins. */
@NullMarked
package dev.guard.engine.internal.origin;

import org.jspecify.annotations.NullMarked;
