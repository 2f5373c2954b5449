/** Argument checks shared by guard's own modules; not part of the API. */
@NullMarked
package dev.guard.api.internal;

import org.jspecify.annotations.NullMarked;
