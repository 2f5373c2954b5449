package dev.guard.testkit;

import dev.guard.spi.TokenService;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The passes of one flow id in {@link InMemoryTokenService}: one bucketed window per window
 * geometry ({@code bucketMs × buckets}) that requests use, and every pass counted in every such
 * window (docs/BEHAVIOUR.md, "Cluster flow control", "the rolling-deploy rule"). A request is
 * decided on the window of its own rule's geometry against its own rule's capacity, so while two
 * rule versions share a flow id each holds all the flow id's traffic to its own limit, and no
 * version's request resets another's window. A geometry that appears starts with the most passes
 * another window holds for its span (in its current bucket); one no request used for one window
 * length is dropped with its counts.
 *
 * <p>Bucket {@code b} of a geometry covers {@code [b × bucketMs, (b+1) × bucketMs)}; the window at
 * {@code now} is the buckets {@code current − buckets + 1 .. current}, and the bucket after the
 * current one holds the permits prioritized requests took ahead. A grant's id is the time its
 * permits were counted at ({@code (atMs << 1) | 1}, never 0), so giving it back finds its bucket in
 * every window. Not thread-safe: the service decides under its lock.
 */
final class FlowWindows {

  private record Geometry(long bucketMs, int buckets) {}

  private static final class Window {
    final Geometry geometry;
    final TreeMap<Long, Long> passes = new TreeMap<>();
    long lastSeenMs;

    Window(Geometry geometry) {
      this.geometry = geometry;
    }

    long first(long nowMs) {
      return Math.floorDiv(nowMs, geometry.bucketMs()) - geometry.buckets() + 1;
    }
  }

  private final Map<Geometry, Window> windows = new HashMap<>();

  /** Decides a request of {@code permits} for a rule of this geometry and threshold. */
  TokenService.Result decide(long nowMs, long bucketMs, int buckets, double threshold, int permits,
      boolean prioritized) {
    prune(nowMs);
    long current = Math.floorDiv(nowMs, bucketMs);
    long first = current - buckets + 1;
    Geometry geometry = new Geometry(bucketMs, buckets);
    Window own = windows.get(geometry);
    if (own == null) {
      own = new Window(geometry);
      long seed = seed(first * bucketMs, nowMs);
      if (seed > 0) {
        own.passes.put(current, seed);
      }
      windows.put(geometry, own);
    }
    own.lastSeenMs = nowMs;
    long passed = 0;
    for (long pass : own.passes.subMap(first, true, current, true).values()) {
      passed += pass;
    }
    double capacity = threshold * buckets * bucketMs / 1000.0;
    double remaining = capacity - passed - permits;
    if (remaining >= 0) {
      count(nowMs, permits);
      return TokenService.Result.granted((long) Math.floor(remaining), grantId(nowMs));
    }
    if (prioritized) {
      long sliding = own.passes.getOrDefault(first, 0L);
      long ahead = own.passes.getOrDefault(current + 1, 0L);
      if (passed - sliding + ahead + permits <= capacity) {
        long atMs = (current + 1) * bucketMs;
        count(atMs, permits);
        return TokenService.Result.grantedAfter(atMs - nowMs, grantId(atMs));
      }
    }
    return TokenService.Result.REFUSED;
  }

  /**
   * The passes a new window starts with: the most any live window holds from {@code fromMs} to
   * now (buckets overlapping the span count whole), placed in the new window's current bucket, so
   * they leave it later than they would have, never earlier.
   */
  private long seed(long fromMs, long nowMs) {
    long seed = 0;
    for (Window window : windows.values()) {
      long bucketMs = window.geometry.bucketMs();
      long held = 0;
      for (long pass : window.passes.subMap(Math.floorDiv(fromMs, bucketMs), true,
          Math.floorDiv(nowMs, bucketMs), true).values()) {
        held += pass;
      }
      seed = Math.max(seed, held);
    }
    return seed;
  }

  /** Takes a grant's permits out of the bucket of every window that counted them. */
  void giveBack(long nowMs, long grantId, int permits) {
    prune(nowMs);
    long atMs = grantId >> 1;
    for (Window window : windows.values()) {
      long bucket = Math.floorDiv(atMs, window.geometry.bucketMs());
      Long held = window.passes.get(bucket);
      if (bucket >= window.first(nowMs) && held != null) {
        long left = held - Math.min(permits, held);
        if (left == 0) {
          window.passes.remove(bucket);
        } else {
          window.passes.put(bucket, left);
        }
      }
    }
  }

  private static long grantId(long atMs) {
    return atMs << 1 | 1L;
  }

  private void count(long atMs, int permits) {
    for (Window window : windows.values()) {
      window.passes.merge(Math.floorDiv(atMs, window.geometry.bucketMs()), (long) permits,
          Long::sum);
    }
  }

  /** Drops geometries unused for a window length, and buckets that left their window. */
  private void prune(long nowMs) {
    for (Iterator<Window> it = windows.values().iterator(); it.hasNext(); ) {
      Window window = it.next();
      Geometry g = window.geometry;
      if (nowMs - window.lastSeenMs > g.bucketMs() * g.buckets()) {
        it.remove();
      } else {
        window.passes.headMap(window.first(nowMs)).clear();
      }
    }
  }
}
