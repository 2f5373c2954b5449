/**
 * JMH benchmarks that measure guard next to its peers (Sentinel, Resilience4j, Bucket4j, Guava)
 * in the same run, plus baselines and the Markdown report of the results.
 */
@NullMarked
package dev.guard.benchmarks;

import org.jspecify.annotations.NullMarked;
