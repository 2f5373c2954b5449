/** The compiled, immutable slot chain of a resource and the slot contract. */
@NullMarked
package dev.guard.engine.internal.chain;

import org.jspecify.annotations.NullMarked;
