/**
 * Access to a guard's calls for guard's own add-on modules (exported to them only); not part of
 * the API.
 */
@NullMarked
package dev.guard.internal;

import org.jspecify.annotations.NullMarked;
