package dev.guard.engine.internal.telemetry;

import dev.guard.engine.internal.registry.Overflows;
import dev.guard.api.RefusedException;
import dev.guard.spi.Cap;
import dev.guard.api.PeriodStats;
import dev.guard.engine.internal.adaptive.AdaptiveSlotKind;
import dev.guard.engine.internal.node.ClusterNode;
import dev.guard.engine.internal.registry.ResourceState;
import dev.guard.engine.internal.stat.RefusalKindCounts;
import dev.guard.engine.internal.stat.MetricBucket;
import dev.guard.engine.internal.stat.StatisticNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The per-second metrics history of every resource (docs/BEHAVIOUR.md, "Metrics history").
 *
 * <p>Nothing here runs on the call path. {@link #collect} moves every whole second that closed
 * since the last collection out of the resources' minute windows (and the per-kind refusal counts)
 * into a bounded ring per resource, and adds it to the resource's running totals. A watermark per
 * resource, advanced under one lock, makes each second recorded exactly once; a collection that
 * comes more than {@value #READABLE_SECONDS} seconds after the previous one can no longer read the
 * oldest of the missed seconds (the minute window has reused them) and counts them as lost.
 *
 * <p>Memory: a resource's ring starts at {@value #INITIAL_CAPACITY} seconds and doubles up to the
 * span as it needs to; only seconds with calls (or calls running) are stored. The rings of all
 * resources together hold at most {@code budget} seconds: a ring that cannot grow keeps its size
 * and overwrites its oldest second (a shorter span for that resource), reported once per resource
 * as {@link Cap#HISTORY}. Totals are kept for every resource.
 */
public final class MetricsHistory {

  /** The most seconds back a collection can read (the minute window minus the current second). */
  static final int READABLE_SECONDS = 58;

  private static final int INITIAL_CAPACITY = 8;
  private static final int KINDS = RefusedException.Kind.values().length;
  /**
   * Stored per second: start, pass, refused, kinds..., success, exception, rt, minRt, concurrency,
   * adaptive limit.
   */
  private static final int STRIDE = 3 + KINDS + 6;
  private static final int F_START = 0;
  private static final int F_PASS = 1;
  private static final int F_BLOCK = 2;
  private static final int F_KIND = 3;
  private static final int F_SUCCESS = 3 + KINDS;
  private static final int F_EXCEPTION = F_SUCCESS + 1;
  private static final int F_RT = F_SUCCESS + 2;
  private static final int F_MIN_RT = F_SUCCESS + 3;
  private static final int F_CONCURRENCY = F_SUCCESS + 4;
  private static final int F_LIMIT = F_SUCCESS + 5;

  private final int spanSeconds;
  private final long budget;
  private final Overflows overflows;
  private final Map<String, Series> series = new ConcurrentHashMap<>();
  private final ReentrantLock collecting = new ReentrantLock();
  private final long[] second = new long[StatisticNode.SECOND_FIELDS];
  private final long[] kinds = new long[KINDS];
  private volatile long collectedThrough = -1000L;
  private long stored;

  /**
   * Creates an empty history.
   *
   * @param spanSeconds seconds kept per resource; 0 keeps only totals
   * @param budget the most seconds all resources' rings hold together
   * @param overflows where a ring that cannot grow is reported
   */
  MetricsHistory(int spanSeconds, long budget, Overflows overflows) {
    this.spanSeconds = spanSeconds;
    this.budget = budget;
    this.overflows = overflows;
  }

  /** The span in seconds. */
  public int spanSeconds() {
    return spanSeconds;
  }

  /**
   * Records every second that closed before the second of {@code nowMs} and was not recorded yet.
   * Returns at once when that was done already.
   *
   * @param nowMs engine time in milliseconds
   * @param resources visits every tracked resource
   * @param closed told of every recorded second of a resource, with its start and the counts
   */
  void collect(long nowMs, Consumer<Consumer<ResourceState>> resources,
      @Nullable SecondSink closed) {
    long last = nowMs - nowMs % 1000L - 1000L;
    if (last < 0 || collectedThrough >= last) {
      return;
    }
    collecting.lock();
    try {
      if (collectedThrough >= last) {
        return;
      }
      resources.accept(resource -> collect(resource, last, closed));
      collectedThrough = last;
      if (closed != null) {
        closed.passDone();
      }
    } finally {
      collecting.unlock();
    }
  }

  /** A receiver of recorded seconds (the refusal log). */
  interface SecondSink {
    /**
     * A recorded second of a resource.
     *
     * @param resource the resource
     * @param node its cluster node (to read origins)
     * @param second what it did
     */
    void second(String resource, ClusterNode node, PeriodStats second);

    /** The collection pass is over. */
    void passDone();
  }

  private void collect(ResourceState resource, long last, @Nullable SecondSink closed) {
    String name = resource.name();
    ClusterNode node = resource.cluster();
    Series s = series.computeIfAbsent(name, ignored -> new Series(last - 60_000L));
    long oldestReadable = last - READABLE_SECONDS * 1000L;
    long from = s.watermark + 1000L;
    if (from < oldestReadable) {
      from = oldestReadable;
    }
    StatisticNode stats = node.stats();
    RefusalKindCounts refusals = node.existingRefusalKinds();
    long concurrency = stats.concurrency();
    long limit = AdaptiveSlotKind.limitOf(resource.chain());
    for (long sec = Math.max(0L, from); sec <= last; sec += 1000L) {
      stats.readSecond(sec, second);
      if (refusals != null) {
        refusals.read(sec, kinds);
      } else {
        Arrays.fill(kinds, 0L);
      }
      boolean empty = second[StatisticNode.PASS] == 0 && second[StatisticNode.BLOCK] == 0
          && second[StatisticNode.SUCCESS] == 0 && concurrency == 0;
      if (empty) {
        continue;
      }
      synchronized (s) {
        s.add(sec, second, kinds, concurrency, limit);
      }
      if (closed != null) {
        long[] one = new long[STRIDE];
        write(one, 0, sec, second, kinds, concurrency, limit);
        closed.second(name, node, read(one, 0, 1000L));
      }
    }
    s.watermark = last;
  }

  /**
   * The recorded seconds of a resource that start in {@code [fromMs, toMs)}, oldest first.
   *
   * @param resource the resource
   * @param fromMs from, engine time
   * @param toMs to (exclusive), engine time
   * @return the seconds; empty for an unknown resource
   */
  List<PeriodStats> history(String resource, long fromMs, long toMs) {
    Series s = series.get(resource);
    if (s == null) {
      return List.of();
    }
    synchronized (s) {
      return s.between(fromMs, toMs);
    }
  }

  /** The totals of every recorded second of a resource, or null if none was recorded. */
  @Nullable PeriodStats totals(String resource) {
    Series s = series.get(resource);
    if (s == null) {
      return null;
    }
    synchronized (s) {
      return s.totals();
    }
  }

  /** The last second recorded, or -1000 before the first collection. */
  public long collectedThrough() {
    return collectedThrough;
  }

  /** One resource's ring of seconds and running totals. Guarded by itself (and the lock). */
  private final class Series {
    long watermark;
    private long[] ring = new long[0];
    private int capacity;
    private int head; // index of the oldest second
    private int size;
    private boolean reported;
    private final long[] totals = new long[STRIDE];

    Series(long watermark) {
      this.watermark = watermark;
      totals[F_MIN_RT] = MetricBucket.DEFAULT_MIN_RT;
      totals[F_LIMIT] = PeriodStats.NO_ADAPTIVE_LIMIT;
    }

    void add(long sec, long[] counts, long[] refused, long concurrency, long limit) {
      if (spanSeconds > 0 && size == capacity && !grow()) {
        if (capacity == 0) {
          addToTotals(sec, counts, refused, concurrency, limit);
          return;
        }
        head = (head + 1) % capacity;
        size--;
      }
      if (capacity > 0) {
        int at = ((head + size) % capacity) * STRIDE;
        write(ring, at, sec, counts, refused, concurrency, limit);
        size++;
      }
      addToTotals(sec, counts, refused, concurrency, limit);
    }

    private void addToTotals(long sec, long[] counts, long[] refused, long concurrency,
        long limit) {
      totals[F_START] = sec;
      totals[F_PASS] += counts[StatisticNode.PASS];
      totals[F_BLOCK] += counts[StatisticNode.BLOCK];
      for (int k = 0; k < KINDS; k++) {
        totals[F_KIND + k] += refused[k];
      }
      totals[F_SUCCESS] += counts[StatisticNode.SUCCESS];
      totals[F_EXCEPTION] += counts[StatisticNode.EXCEPTION];
      totals[F_RT] += counts[StatisticNode.RT];
      totals[F_MIN_RT] = Math.min(totals[F_MIN_RT], counts[StatisticNode.MIN_RT]);
      totals[F_CONCURRENCY] = concurrency;
      totals[F_LIMIT] = limit;
    }

    private boolean grow() {
      if (capacity >= spanSeconds) {
        return false;
      }
      int next = Math.min(spanSeconds, Math.max(INITIAL_CAPACITY, capacity * 2));
      if (stored + next - capacity > budget) {
        if (!reported) {
          reported = true;
          overflows.report(Cap.HISTORY, "");
        }
        return false;
      }
      long[] grown = new long[next * STRIDE];
      for (int i = 0; i < size; i++) {
        System.arraycopy(ring, ((head + i) % capacity) * STRIDE, grown, i * STRIDE, STRIDE);
      }
      stored += next - capacity;
      ring = grown;
      capacity = next;
      head = 0;
      return true;
    }

    List<PeriodStats> between(long fromMs, long toMs) {
      List<PeriodStats> out = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        int at = ((head + i) % capacity) * STRIDE;
        long sec = ring[at + F_START];
        if (sec >= fromMs && sec < toMs) {
          out.add(read(ring, at, 1000L));
        }
      }
      return out;
    }

    PeriodStats totals() {
      return new PeriodStats(0L, totals[F_START] + 1000L, totals[F_PASS], totals[F_BLOCK],
          totals[F_KIND], totals[F_KIND + 1], totals[F_KIND + 2], totals[F_KIND + 3],
          totals[F_KIND + 4], totals[F_KIND + 5], totals[F_SUCCESS], totals[F_EXCEPTION], totals[F_RT],
          totals[F_SUCCESS] == 0 ? 0L : totals[F_MIN_RT], totals[F_CONCURRENCY],
          (int) totals[F_LIMIT]);
    }
  }

  private static void write(long[] to, int at, long sec, long[] counts, long[] refused,
      long concurrency, long limit) {
    to[at + F_START] = sec;
    to[at + F_PASS] = counts[StatisticNode.PASS];
    to[at + F_BLOCK] = counts[StatisticNode.BLOCK];
    System.arraycopy(refused, 0, to, at + F_KIND, KINDS);
    to[at + F_SUCCESS] = counts[StatisticNode.SUCCESS];
    to[at + F_EXCEPTION] = counts[StatisticNode.EXCEPTION];
    to[at + F_RT] = counts[StatisticNode.RT];
    to[at + F_MIN_RT] = counts[StatisticNode.MIN_RT];
    to[at + F_CONCURRENCY] = concurrency;
    to[at + F_LIMIT] = limit;
  }

  private static PeriodStats read(long[] from, int at, long length) {
    long sec = from[at + F_START];
    long success = from[at + F_SUCCESS];
    return new PeriodStats(sec, sec + length, from[at + F_PASS], from[at + F_BLOCK],
        from[at + F_KIND], from[at + F_KIND + 1], from[at + F_KIND + 2], from[at + F_KIND + 3],
        from[at + F_KIND + 4], from[at + F_KIND + 5], success, from[at + F_EXCEPTION], from[at + F_RT],
        success == 0 ? 0L : from[at + F_MIN_RT], from[at + F_CONCURRENCY],
        (int) from[at + F_LIMIT]);
  }
}
