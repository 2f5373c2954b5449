package dev.guard.engine.internal.flow;

import dev.guard.engine.internal.stat.FlowMetrics;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * The admission budget of a QPS rule that measures all of its resource's calls (DIRECT strategy,
 * {@code origin} default), so that deciding a call does not read the window's pass count, a
 * value that every core writes on every call.
 *
 * <p><b>Model.</b> With a one-second window, Sentinel's check {@code ⌊passQps⌋ + permits <= count}
 * admits, within one bucket of the window, exactly {@code ⌊count⌋ − p} permits, where {@code p} is
 * the window's pass count when the bucket's first decision is made (the earlier buckets still in
 * the window, plus borrowed passes that arrived with this bucket). That number is this bucket's
 * budget: each admitted call takes its permits from it, and a call is refused when too few remain.
 * Decided by one thread, this is the same decision as reading the window on every call (a property
 * test checks it); the window is read once per bucket instead of once per call.
 *
 * <p><b>Tokens.</b> The budget starts in a shared pool. Each thread works from a cell of its own
 * stripe (chosen by thread id), padded to its own cache lines: a call takes its permits from the
 * cell with one compare-and-set on a line no other core writes in the usual case. An empty cell is
 * refilled from the pool in chunks of a {@code 4 × stripes}-th of what is left, down to the
 * permits of one call near the end. Once the pool is empty, a call takes its permits from other
 * stripes' cells before it is refused. So within a bucket, admitted permits never exceed the
 * budget, whatever the number of threads, and a call is refused only once the budget is spent
 * (except that a multi-permit call can be refused while the last tokens are split over cells that
 * each hold fewer than its permits, and a chunk still moving from the pool to a cell while the
 * budget runs out can be missed by other threads). At a bucket boundary, a call admitted in the
 * previous bucket whose pass is recorded only after the new budget was computed can overshoot the
 * limit by one call per thread, the same bound as reading the window per call.
 *
 * <p>A call admitted here and then refused by a later rule gives its permits back ({@link
 * #refund}). Window geometries other than one second fall back to reading the window per call
 * ({@link #acquire} returns {@link #UNBUDGETED}). Each bucket allocates one small epoch object, on
 * its first decision; the decisions themselves allocate nothing.
 */
final class PassBudget {

  /** {@link #acquire}: the permits were taken from the budget. */
  static final int ADMITTED = 1;

  /** {@link #acquire}: the bucket's budget is spent. */
  static final int REFUSED = 0;

  /** {@link #acquire}: this node's window cannot be budgeted; decide by reading the window. */
  static final int UNBUDGETED = -1;

  private static final int REMAINING_BITS = 40;
  private static final long REMAINING = (1L << REMAINING_BITS) - 1;
  private static final long TAGS = (1L << (Long.SIZE - 1 - REMAINING_BITS)) - 1;
  private static final int PAD = 16; // longs per cell: 128 bytes, so neighbours never share a line
  private static final int STRIPES = stripes(Runtime.getRuntime().availableProcessors());
  private static final VarHandle EPOCH;
  private static final VarHandle POOL;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      EPOCH = lookup.findVarHandle(PassBudget.class, "epoch", Epoch.class);
      POOL = MethodHandles.privateLookupIn(Epoch.class, lookup)
          .findVarHandle(Epoch.class, "pool", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * One bucket's budget: its span, its tag (cells hold tokens of the epoch whose tag they carry),
   * the tokens not yet handed to any cell, and whether a refused call found every cell empty. An
   * overdrawn epoch started with more passes in the window than the limit (borrowed passes
   * arrived): it refuses even calls that ask for no permits, as reading the window would.
   */
  private static final class Epoch {
    final @Nullable FlowMetrics node;
    final long startMs;
    final long endMs;
    final long tagBits;
    final double limit;
    final boolean overdrawn;
    volatile long pool;
    volatile boolean spent;

    Epoch(@Nullable FlowMetrics node, double limit, long startMs, long endMs, long tag,
        long budget) {
      this.node = node;
      this.limit = limit;
      this.startMs = startMs;
      this.endMs = endMs;
      this.tagBits = tag << REMAINING_BITS;
      this.overdrawn = budget < 0;
      this.pool = Math.max(0L, budget);
    }

    /** An epoch no time falls in, so the next call computes a budget; cells keep {@code tag}. */
    static Epoch none(long tag) {
      return new Epoch(null, 0, Long.MIN_VALUE, Long.MIN_VALUE, tag, 0);
    }

    long tag() {
      return tagBits >>> REMAINING_BITS;
    }
  }

  private final AtomicLongArray cells = new AtomicLongArray(STRIPES * PAD);
  private volatile Epoch epoch = Epoch.none(0);

  static int stripes(int processors) {
    int wanted = Math.max(4, Math.min(64, 2 * processors));
    return Integer.highestOneBit(wanted - 1) << 1;
  }

  /**
   * Takes {@code permits} from the budget of the bucket that contains {@code nowMs}. A caller whose
   * time lies before the current bucket (it read the clock just before another thread started the
   * next bucket) takes them from the current bucket.
   *
   * @param node the rule's node, whose window computes each bucket's budget
   * @param limit the rule's rate limit in calls per second; when it differs from the limit the
   *     bucket's budget was computed for (a warming rule's rate changes each second), the budget
   *     is computed again from the window
   * @param permits the permits, {@code >= 0}
   * @param nowMs engine time in milliseconds
   * @return {@link #ADMITTED}, {@link #REFUSED} or {@link #UNBUDGETED}
   */
  int acquire(FlowMetrics node, double limit, int permits, long nowMs) {
    Epoch current = epoch;
    if (nowMs >= current.endMs || current.node != node || current.limit != limit) {
      current = roll(current, node, limit, nowMs);
      if (current == null) {
        return UNBUDGETED;
      }
    }
    int cell = cellOfThisThread();
    long value = cells.get(cell);
    if ((value & ~REMAINING) == current.tagBits
        && (value & REMAINING) >= permits
        && cells.compareAndSet(cell, value, value - permits)) {
      return ADMITTED;
    }
    return acquireSlowly(current, cell, permits) ? ADMITTED : REFUSED;
  }

  /**
   * Gives back permits that {@link #acquire} took for a call that a later rule refused, if the
   * bucket of {@code decidedAtMs} is still current (otherwise its budget is over anyway).
   *
   * @param permits the permits
   * @param decidedAtMs the time given to {@link #acquire}
   */
  void refund(int permits, long decidedAtMs) {
    Epoch current = epoch;
    if (decidedAtMs >= current.startMs && decidedAtMs < current.endMs) {
      POOL.getAndAdd(current, (long) permits);
      current.spent = false;
    }
  }

  /**
   * Makes the next call compute the budget again from the window, for a controller that admitted
   * a call without taking it from the budget (its pass, once recorded, counts against the rest).
   */
  void recount() {
    Epoch current = epoch;
    EPOCH.compareAndSet(this, current, Epoch.none(current.tag()));
  }

  private boolean acquireSlowly(Epoch current, int cell, int permits) {
    if (current.overdrawn) {
      return false; // no cell ever holds its tokens, so the fast path never admits either
    }
    while (true) {
      long value = cells.get(cell);
      long own = (value & ~REMAINING) == current.tagBits ? value & REMAINING : 0L;
      if (own >= permits) {
        if (cells.compareAndSet(cell, value, current.tagBits | (own - permits))) {
          return true;
        }
        continue;
      }
      long pool = current.pool;
      if (own + pool < permits) {
        return takeFromOtherCells(current, cell, permits);
      }
      long grant = Math.min(pool, Math.max(permits - own, pool / (4L * STRIPES)));
      if (POOL.compareAndSet(current, pool, pool - grant)) {
        deposit(current, cell, grant);
      }
    }
  }

  private void deposit(Epoch current, int cell, long tokens) {
    while (true) {
      long value = cells.get(cell);
      long own = (value & ~REMAINING) == current.tagBits ? value & REMAINING : 0L;
      if (cells.compareAndSet(cell, value, current.tagBits | (own + tokens))) {
        return;
      }
    }
  }

  private boolean takeFromOtherCells(Epoch current, int cell, int permits) {
    if (current.spent) {
      return false;
    }
    boolean allEmpty = true;
    for (int k = 1; k < STRIPES; k++) {
      int other = (cell + k * PAD) & (STRIPES * PAD - 1);
      while (true) {
        long value = cells.get(other);
        long tokens = (value & ~REMAINING) == current.tagBits ? value & REMAINING : 0L;
        if (tokens > 0) {
          allEmpty = false;
        }
        if (tokens < permits) {
          break;
        }
        if (cells.compareAndSet(other, value, value - permits)) {
          return true;
        }
      }
    }
    if (allEmpty && current.pool == 0) {
      current.spent = true;
    }
    return false;
  }

  /** Installs the epoch of {@code nowMs}'s bucket; null when the node's window can't be budgeted. */
  private @Nullable Epoch roll(Epoch seen, FlowMetrics node, double limit, long nowMs) {
    WindowGeometry geometry = node.secondGeometry();
    if (geometry.intervalMs() != 1000) {
      return null;
    }
    long length = geometry.bucketLengthMs();
    long startMs = nowMs - nowMs % length;
    long whole = (long) Math.min(REMAINING, Math.floor(limit));
    Epoch expected = seen;
    while (true) {
      long used = (long) node.passQps(nowMs); // the whole one-second window: passes in it
      Epoch next = new Epoch(node, limit, startMs, startMs + length, (expected.tag() + 1) & TAGS,
          whole - used);
      if (EPOCH.compareAndSet(this, expected, next)) {
        return next;
      }
      expected = epoch;
      if (expected.node == node && nowMs < expected.endMs && expected.limit == limit) {
        return expected;
      }
    }
  }

  private static int cellOfThisThread() {
    return ((int) Thread.currentThread().getId() & (STRIPES - 1)) * PAD;
  }
}
