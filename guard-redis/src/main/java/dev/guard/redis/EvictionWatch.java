package dev.guard.redis;

import io.lettuce.core.api.sync.RedisServerCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads whether a Redis server may evict guard's keys ({@link Eviction}) and logs what an operator
 * must know: a warning once per connection when the policy evicts (information when it cannot be
 * read), and again when it changes, when the server's evicted-keys counter rose since the last
 * check, or when the token service restored lost quotas since then. Logs go to the {@link
 * System.Logger} {@code dev.guard.redis}; never on the call path (checks run at each new
 * connection on the connector's thread, and on the thread that asks for a reading).
 *
 * <p>Redis's answers are untrusted: a missing or unknown policy, a non-numeric limit, a counter
 * that does not parse, a refused command all make that part unknown; nothing is thrown, and only
 * the names of the policies Redis documents reach a reading or a log line.
 */
final class EvictionWatch {

  private static final System.Logger LOG = System.getLogger("dev.guard.redis");
  private static final Set<String> EVICTING = Set.of("allkeys-lru", "allkeys-lfu",
      "allkeys-random", "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl");
  private static final Pattern EVICTED = Pattern.compile("(?m)^evicted_keys:(\\d{1,18})\\r?$");

  private final String servers;
  private final LongSupplier restored;
  private @Nullable Eviction told; // guarded by this; null: nothing said on this connection

  /**
   * @param servers where the connection goes, for the log lines
   * @param restored the token service's count of restored quota states (0 for the fleet)
   */
  EvictionWatch(String servers, LongSupplier restored) {
    this.servers = servers;
    this.restored = restored;
  }

  /** A new connection: the next check logs what it finds even if it was said before. */
  synchronized void connected() {
    told = null;
  }

  /**
   * Reads the servers now and, if the connection is still the one read ({@code current}: not
   * closed or replaced meanwhile, which would make the reading one of a closing connection), logs
   * what changed; returns the reading; never throws.
   */
  Eviction check(List<RedisServerCommands<String, String>> nodes, BooleanSupplier current) {
    Eviction now = read(nodes).withRestoredStates(restored.getAsLong());
    synchronized (this) {
      if (current.getAsBoolean()) {
        log(told, now);
        told = now;
      }
    }
    return now;
  }

  /** The reading of the primaries (one for a single server); the riskiest decides. */
  static Eviction read(List<RedisServerCommands<String, String>> nodes) {
    if (nodes.isEmpty()) {
      return Eviction.unknown("guard could not list the Redis servers to ask about eviction");
    }
    Set<String> policies = new TreeSet<>();
    List<String> unknown = new ArrayList<>();
    long smallest = Long.MAX_VALUE;
    long evicted = 0;
    boolean mayEvict = false;
    boolean limitUnknown = false;
    for (RedisServerCommands<String, String> node : nodes) {
      String policy = policy(config(node, "maxmemory-policy"));
      long limit = number(config(node, "maxmemory"));
      evicted = evicted < 0 ? -1 : plus(evicted, evictedKeys(node));
      if (policy == null) {
        unknown.add("maxmemory-policy");
        continue;
      }
      policies.add(policy);
      if (!policy.equals("noeviction") && limit != 0) {
        mayEvict = true; // an unknown limit counts as one: it may be set
      }
      if (limit > 0) {
        smallest = Math.min(smallest, limit);
      }
      limitUnknown |= limit < 0;
    }
    long maxmemory = smallest != Long.MAX_VALUE ? smallest
        : limitUnknown || !unknown.isEmpty() ? -1 : 0;
    String policy = policies.isEmpty() ? "unknown" : String.join(",", policies);
    if (mayEvict) {
      return new Eviction(Eviction.Risk.MAY_EVICT, policy, maxmemory, evicted, 0,
          "Redis may evict guard's keys (maxmemory-policy " + policy + ", maxmemory "
          + (maxmemory < 0 ? "unknown" : maxmemory) + "): an evicted key resets the cluster limits, quotas and fleet entries it"
          + " held; set maxmemory-policy noeviction (docs/CLUSTER.md, \"When Redis evicts keys\")");
    }
    if (!unknown.isEmpty()) {
      return new Eviction(Eviction.Risk.UNKNOWN, "unknown", -1, evicted, 0,
          "guard cannot read Redis's maxmemory-policy (CONFIG GET refused, renamed or answered"
          + " oddly), so it cannot tell whether Redis may evict its keys; make sure it is"
          + " noeviction (docs/CLUSTER.md, \"When Redis evicts keys\")");
    }
    return new Eviction(Eviction.Risk.NONE, policy, maxmemory, evicted, 0,
        "Redis does not evict guard's keys (maxmemory-policy " + policy + ", maxmemory "
        + maxmemory + ")");
  }

  private static @Nullable String config(RedisServerCommands<String, String> node, String name) {
    try {
      Map<String, String> answer = node.configGet(name);
      return answer == null ? null : answer.get(name);
    } catch (RuntimeException refused) { // renamed, disabled, an ACL, a timeout, a broken reply
      return null;
    }
  }

  /** A known policy name, or null. */
  static @Nullable String policy(@Nullable String value) {
    if (value == null) {
      return null;
    }
    String name = value.strip().toLowerCase(java.util.Locale.ROOT);
    return name.equals("noeviction") || EVICTING.contains(name) ? name : null;
  }

  /** A non-negative number of 18 digits at most, or -1. */
  static long number(@Nullable String value) {
    if (value == null || !value.strip().matches("\\d{1,18}")) {
      return -1;
    }
    return Long.parseLong(value.strip());
  }

  private static long evictedKeys(RedisServerCommands<String, String> node) {
    try {
      return evictedKeys(node.info("stats"));
    } catch (RuntimeException refused) {
      return -1;
    }
  }

  /** The {@code evicted_keys} of an {@code INFO stats} answer, or -1. */
  static long evictedKeys(@Nullable String info) {
    if (info == null || info.length() > 1 << 16) {
      return -1;
    }
    Matcher found = EVICTED.matcher(info);
    return found.find() ? Long.parseLong(found.group(1)) : -1;
  }

  private static long plus(long a, long b) {
    return b < 0 ? -1 : a + b;
  }

  private void log(@Nullable Eviction before, Eviction now) {
    boolean changed = before == null || before.risk() != now.risk()
        || !before.policy().equals(now.policy()) || before.maxmemoryBytes() != now.maxmemoryBytes();
    if (changed && (now.risk() != Eviction.Risk.NONE || before != null)) {
      LOG.log(now.risk() == Eviction.Risk.MAY_EVICT ? System.Logger.Level.WARNING
          : System.Logger.Level.INFO, "guard-redis " + servers + ": " + now.detail());
    }
    if (before == null) {
      return;
    }
    if (before.evictedKeys() >= 0 && now.evictedKeys() > before.evictedKeys()
        && now.risk() != Eviction.Risk.NONE) {
      LOG.log(System.Logger.Level.WARNING, "guard-redis " + servers + ": Redis evicted "
          + (now.evictedKeys() - before.evictedKeys()) + " keys since guard last looked; if"
          + " they were guard's, the cluster limits and fleet entries they held started again"
          + " from empty");
    }
    if (now.restoredStates() > before.restoredStates()) {
      LOG.log(System.Logger.Level.WARNING, "guard-redis " + servers + ": the quotas of a flow id"
          + " were gone from Redis before they were full again "
          + (now.restoredStates() - before.restoredStates()) + " times since guard last looked"
          + " (eviction, a flush, a restart or a failover); each was restored from this"
          + " instance's last answer");
    }
  }
}
