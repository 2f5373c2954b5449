/**
 * JMH benchmarks that measure guard next to its peers (Sentinel, Resilience4j, Bucket4j, Guava)
 * in the same run, plus baselines and the Markdown report of the results.
 *
 * <p>One class per scenario, one {@code @Benchmark} method per library, named after it. Each
 * library's objects live in a {@code @State} of their own, so a forked run of one method only
 * builds that library's state, and the state's {@code @Setup} checks that the scenario takes the
 * claimed path (see {@link dev.guard.benchmarks.Sanity}). Warm-up is at least 6 s because
 * Sentinel needs that long to reach its steady state.
 */
@NullMarked
package dev.guard.benchmarks;

import org.jspecify.annotations.NullMarked;
