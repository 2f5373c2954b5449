/** Micrometer metrics for a guard engine: {@link dev.guard.micrometer.GuardMetrics}. */
@NullMarked
package dev.guard.micrometer;

import org.jspecify.annotations.NullMarked;
