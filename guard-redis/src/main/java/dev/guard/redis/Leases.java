package dev.guard.redis;

/**
 * The permits one instance took ahead from a flow id's shared window and spends locally (leased
 * mode), for one flow id.
 *
 * <p>A lease is counted as passes of the shared bucket it was taken in, and it ends, on this
 * instance's clock, no later than that bucket does: its deadline is the time the request was
 * <em>sent</em> plus the time the server said was left in the bucket, so it ends before the bucket
 * ends on the server (the server read its clock after the request was sent). Every permit is
 * therefore spent inside the bucket that counts it, and no window of the shared geometry admits
 * more than its capacity (docs/BEHAVIOUR.md, "Leased mode"). Permits left when a lease ends are
 * lost: they were counted and never spent.
 *
 * <p>The size of the next lease adapts between 1 and the configured batch: it doubles when a lease
 * was used up and halves when one ended with permits left, so an instance that calls rarely takes
 * one permit at a time and wastes nothing. Thread-safe (guarded by this object).
 */
final class Leases {

  private final int maxBatch;
  private int size = 1;
  private long remaining;
  private long deadlineNanos;
  private boolean held;

  Leases(int maxBatch) {
    this.maxBatch = maxBatch;
  }

  /** Takes {@code permits} from the lease if it is still running and holds enough. */
  synchronized boolean tryTake(int permits, long nowNanos) {
    if (!held) {
      return false;
    }
    if (nowNanos - deadlineNanos < 0 && remaining >= permits) {
      remaining -= permits;
      return true;
    }
    boolean usedUp = remaining < permits && nowNanos - deadlineNanos < 0 || remaining == 0;
    size = usedUp ? Math.min(maxBatch, size * 2) : Math.max(1, size / 2);
    held = false;
    remaining = 0;
    return false;
  }

  /**
   * Takes back permits of a grant whose call never ran, if the lease still runs (they were counted
   * in its bucket); after the lease ended they are lost like any permit left in it.
   */
  synchronized void giveBack(int permits, long nowNanos) {
    if (held && nowNanos - deadlineNanos < 0) {
      remaining += permits;
    }
  }

  /** How many permits the next request asks for: the lease size, at least {@code permits}. */
  synchronized int wanted(int permits) {
    return Math.max(size, permits);
  }

  /**
   * Keeps what a request granted beyond its own permits until the deadline (also when nothing is
   * left, so that the next request sees the lease used up). Another lease still running (a
   * concurrent request) is merged with it and ends at the earlier deadline.
   */
  synchronized void keep(long left, long deadline, long nowNanos) {
    if (held && nowNanos - deadlineNanos < 0) {
      remaining += left;
      deadlineNanos = deadline - deadlineNanos < 0 ? deadline : deadlineNanos;
    } else {
      remaining = left;
      deadlineNanos = deadline;
      held = true;
    }
  }
}
