package dev.guard.redis;

import dev.guard.api.rule.ClusterMode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Each flow id's keys, built once per flow id and kept, with its lease in leased mode.
 *
 * <p>Invariants: a flow id's entry never changes once made (a race builds two equal entries and
 * keeps one), so the request path allocates no keys after a flow id's first request. Every key of
 * an entry starts with {@link ScriptCalls#prefix} (one Redis Cluster hash slot), followed by the
 * namespace's request counter on one server. One entry per flow id the service was asked about,
 * so the map is as large as the rule set.
 */
final class FlowKeys {

  /**
   * A flow id's keys and its lease.
   *
   * @param tokenKeys the window and instance keys of flow tokens (and the request counter)
   * @param acquireKeys the concurrency and instance keys of concurrency tokens (and the counter)
   * @param leases the lease of leased mode; null in exact mode
   */
  record Flow(String[] tokenKeys, String[] acquireKeys, @Nullable Leases leases) {}

  private final ScriptCalls calls;
  private final int lease;
  private final Map<String, Flow> flows = new ConcurrentHashMap<>();

  FlowKeys(ScriptCalls calls, int lease) {
    this.calls = calls;
    this.lease = lease;
  }

  Flow of(String flowId) {
    Flow flow = flows.get(flowId);
    if (flow == null) {
      String prefix = calls.prefix(flowId);
      String[] limiter = calls.ownLimiterKeys();
      flow = flows.computeIfAbsent(flowId, id -> new Flow(
          keys(prefix + ":w", prefix + ":i", limiter),
          keys(prefix + ":c", prefix + ":i", limiter),
          lease > 0 ? new Leases(lease) : null));
    }
    return flow;
  }

  /** The scripts' per-instance flag of a flow id's threshold: "1" per instance, else "0". */
  static String perInstance(ClusterMode mode) {
    return mode.threshold() == ClusterMode.Threshold.PER_INSTANCE ? "1" : "0";
  }

  private static String[] keys(String first, String second, String @Nullable [] limiter) {
    return limiter == null
        ? new String[] {first, second}
        : new String[] {first, second, limiter[0]};
  }
}
