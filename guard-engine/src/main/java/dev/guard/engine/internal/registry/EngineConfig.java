package dev.guard.engine.internal.registry;

import org.jspecify.annotations.Nullable;

import dev.guard.engine.internal.stat.WindowGeometry;

/**
 * The immutable settings of one engine, validated by the engine's builder.
 *
 * @param secondWindow geometry of every node's second-level window
 * @param maxResources most resources with statistics
 * @param maxContexts most distinct context names
 * @param maxOriginsPerResource most origin nodes per resource
 * @param occupyTimeoutMs longest wait of a prioritized call borrowing from a future bucket
 * @param contextStatistics whether every resource records per-context statistics (otherwise only
 *     resources whose rules measure a context do)
 * @param historySeconds seconds of metrics history kept per resource (0: totals only)
 * @param historyBudget the most seconds of history all resources hold together
 * @param ruleHistory how many applied rule sets the engine remembers
 * @param refusalLogger where the refusal log writes lines, or null for none
 * @param refusalLogLines the most refused-log lines per recording pass
 */
public record EngineConfig(
    WindowGeometry secondWindow,
    int maxResources,
    int maxContexts,
    int maxOriginsPerResource,
    long occupyTimeoutMs,
    boolean contextStatistics,
    int historySeconds,
    long historyBudget,
    int ruleHistory,
    System.@Nullable Logger refusalLogger,
    int refusalLogLines) {}
