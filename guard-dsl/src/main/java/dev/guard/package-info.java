/**
 * The guard DSL: {@link dev.guard.Guard} declares a resource's protections with an immutable
 * builder and runs or decorates code under them.
 */
@NullMarked
package dev.guard;

import org.jspecify.annotations.NullMarked;
