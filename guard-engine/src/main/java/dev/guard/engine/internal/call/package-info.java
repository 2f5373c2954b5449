/**
 * The path of a call: contexts and entries (pooled on the decorator path), deciding a call with
 * its resource's chain, its statistics, and exit. Not exported.
 */
@NullMarked
package dev.guard.engine.internal.call;

import org.jspecify.annotations.NullMarked;
