package dev.guard.redis;

import java.util.Objects;

/**
 * Whether the Redis server may evict guard's keys when it runs out of memory, as guard read it
 * ({@code CONFIG GET maxmemory-policy}, {@code CONFIG GET maxmemory}, {@code INFO stats}), and
 * what it saw evicted. An evicted key resets the shared state it held: a window, a quota, a
 * key's budget, held concurrency tokens, a fleet entry (docs/CLUSTER.md, "When Redis evicts
 * keys"). Only {@code noeviction}, or no memory limit, keeps them; every key guard writes
 * carries a TTL, so the {@code volatile-*} policies evict them as {@code allkeys-*} do.
 *
 * <pre>{@code
 * Eviction eviction = tokens.eviction();   // or fleet.view().eviction()
 * if (eviction.risk() != Eviction.Risk.NONE) {
 *   log.warn(eviction.detail());
 * }
 * }</pre>
 *
 * <p>What Redis answers is read as data: a renamed or disabled {@code CONFIG}, an error or an
 * answer guard does not recognise makes the risk {@link Risk#UNKNOWN}, never an exception.
 *
 * @param risk whether guard's keys may be evicted
 * @param policy the server's {@code maxmemory-policy} (on Redis Cluster the distinct policies of
 *     the primaries, comma-separated), or {@code "unknown"}
 * @param maxmemoryBytes the server's {@code maxmemory} (0: no limit; on Redis Cluster the
 *     smallest limit of a primary that has one), or -1 when unknown
 * @param evictedKeys the server's {@code evicted_keys} counter (every key it evicted since it
 *     started or its statistics were reset, guard's or not; summed over the primaries), or -1
 *     when unknown
 * @param restoredStates how often this instance's token service found the quotas of a flow id
 *     lost before they were full again (evicted, flushed, a restart or a failover) and restored
 *     them from its own last answer; 0 where not counted
 * @param detail what this means, in one sentence for a log or a health page
 */
public record Eviction(Risk risk, String policy, long maxmemoryBytes, long evictedKeys,
    long restoredStates, String detail) {

  /** Whether guard's keys may be evicted. */
  public enum Risk {
    /** The server never evicts: {@code noeviction}, or no {@code maxmemory}. */
    NONE,
    /** The server evicts keys under memory pressure, guard's among them. */
    MAY_EVICT,
    /** The policy could not be read (not connected, {@code CONFIG} refused, an odd answer). */
    UNKNOWN
  }

  /**
   * Checks the components.
   *
   * @param risk whether guard's keys may be evicted
   * @param policy the policy
   * @param maxmemoryBytes the memory limit, -1 when unknown
   * @param evictedKeys the evicted keys, -1 when unknown
   * @param restoredStates the quota states restored
   * @param detail the sentence
   * @throws NullPointerException if a text or the risk is null
   */
  public Eviction {
    Objects.requireNonNull(risk, "risk");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(detail, "detail");
  }

  static Eviction unknown(String why) {
    return new Eviction(Risk.UNKNOWN, "unknown", -1, -1, 0, why);
  }

  /** This reading with the token service's count of restored quota states. */
  Eviction withRestoredStates(long restored) {
    return new Eviction(risk, policy, maxmemoryBytes, evictedKeys, restored, detail);
  }
}
