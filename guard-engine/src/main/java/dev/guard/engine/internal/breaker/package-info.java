/** Circuit breakers: the breaker slot, its breakers' state machine and their sliding windows. */
@NullMarked
package dev.guard.engine.internal.breaker;

import org.jspecify.annotations.NullMarked;
