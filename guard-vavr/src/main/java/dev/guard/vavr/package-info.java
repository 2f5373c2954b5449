/**
 * {@link dev.guard.vavr.VavrCalls}: a guard's calls as vavr {@code Try} and {@code Either} values.
 */
@NullMarked
package dev.guard.vavr;

import org.jspecify.annotations.NullMarked;
