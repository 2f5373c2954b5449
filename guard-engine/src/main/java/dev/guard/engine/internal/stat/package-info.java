/** Sliding-window statistics: bucket rings, metric buckets and statistic nodes. */
@NullMarked
package dev.guard.engine.internal.stat;

import org.jspecify.annotations.NullMarked;
