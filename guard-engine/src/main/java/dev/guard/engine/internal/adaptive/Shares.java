package dev.guard.engine.internal.adaptive;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The shares of an adaptive limit per caller origin (docs/BEHAVIOUR.md, "Capacity shares"): one
 * group per listed origin and one for every other origin, which has what the listed shares leave
 * of the whole. A group's quota is its share of the limit in force, rounded down. A call of a
 * group under its quota may take any free place; a call of a group at or over its quota borrows,
 * and may take a free place only while more places are free than the other groups' unused quotas
 * — counting only groups that asked for a place in this window or the last: an idle group's share
 * is free to borrow, an active one's is kept for it. The total in flight never exceeds the limit.
 *
 * <p>Counts are atomic per group; a decision reads them without a lock, so two calls deciding at
 * once may both borrow the last place kept for another group (the total stays within the limit).
 */
final class Shares {

  private final Map<String, Integer> groups = new HashMap<>();
  private final double[] fractions;
  private final AtomicIntegerArray inFlight;
  private final AtomicLongArray lastSeen;
  private final int others;
  private volatile long window = 2; // so that no group counts as active before it asks

  Shares(Map<String, Double> shares) {
    fractions = new double[shares.size() + 1];
    double listed = 0;
    int i = 0;
    for (Map.Entry<String, Double> share : shares.entrySet()) {
      groups.put(share.getKey(), i);
      fractions[i++] = share.getValue();
      listed += share.getValue();
    }
    others = i;
    fractions[others] = Math.max(0.0, 1.0 - listed);
    inFlight = new AtomicIntegerArray(fractions.length);
    lastSeen = new AtomicLongArray(fractions.length);
  }

  int groupOf(String origin) {
    Integer group = groups.get(origin);
    return group == null ? others : group;
  }

  /** Notes that a group asked for a place in this window. */
  void seen(int group) {
    long now = window;
    if (lastSeen.get(group) != now) {
      lastSeen.lazySet(group, now);
    }
  }

  boolean mayTake(int group, int running, int limit) {
    if (inFlight.get(group) < quota(group, limit)) {
      return true;
    }
    long current = window;
    int kept = 0;
    for (int other = 0; other < fractions.length; other++) {
      if (other != group && current - lastSeen.get(other) <= 1) {
        kept += Math.max(0, quota(other, limit) - inFlight.get(other));
      }
    }
    return limit - running > kept;
  }

  void taken(int group) {
    inFlight.incrementAndGet(group);
  }

  void given(int group) {
    inFlight.decrementAndGet(group);
  }

  void nextWindow() {
    window = window + 1; // one writer: the thread that closed the window
  }

  private int quota(int group, int limit) {
    return (int) (fractions[group] * limit);
  }
}
