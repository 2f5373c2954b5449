package dev.guard.testkit;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads parked on a {@link ManualClock} ({@link ManualClock#sleep(long)} in the parking mode,
 * {@link ManualClock#backgroundSleep(long)} in both), and the bookkeeping that releases them as
 * the clock advances. Every change of the clock's reading goes through {@link #advance}.
 *
 * <p>Each parked thread owns a {@link Sleeper} holding the nanoseconds it still has to wait and a
 * condition of its own. Every advance, under the lock, moves the clock's reading and subtracts the
 * advanced amount from every sleeper's remaining wait; a sleeper whose remaining wait reaches zero
 * is removed from the list and its condition signalled. Counting down the remaining wait, rather
 * than comparing the reading with an absolute deadline, keeps the release right however far the
 * counter wraps, and removing a sleeper in the advancing thread makes {@link #count()} exact as
 * soon as {@code advance} returns, before the released thread has even woken.
 *
 * <p>Invariants, all under {@link #lock}: a sleeper is in {@link #sleepers} if and only if its
 * remaining wait is positive and its thread has not given up on an interrupt; the reading only
 * changes while the lock is held, so a sleeper registered before an advance sees all of it and
 * one registered after sees none of it.
 */
final class ParkedSleepers {

  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled whenever a thread parks, for {@link #awaitAtLeast(int, long)}. */
  private final Condition parkedMore = lock.newCondition();

  /** Guarded by {@link #lock}. */
  private final List<Sleeper> sleepers = new ArrayList<>();

  /** One parked thread; compared by identity. Fields guarded by the enclosing lock. */
  private static final class Sleeper {
    long remainingNanos;
    final Condition released;

    Sleeper(long remainingNanos, Condition released) {
      this.remainingNanos = remainingNanos;
      this.released = released;
    }
  }

  /** Parks the calling thread until the clock has advanced by {@code nanos}, which is positive. */
  void park(long nanos) throws InterruptedException {
    lock.lockInterruptibly(); // throws, clearing the status, if interrupted on entry
    try {
      Sleeper me = new Sleeper(nanos, lock.newCondition());
      sleepers.add(me);
      parkedMore.signalAll();
      while (me.remainingNanos > 0) {
        try {
          me.released.await();
        } catch (InterruptedException e) {
          if (me.remainingNanos == 0) {
            // Released and interrupted at once: the sleep is over, keep the status for the caller.
            Thread.currentThread().interrupt();
            return;
          }
          sleepers.remove(me);
          throw e;
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Adds {@code nanos}, which is not negative, to the reading and releases whom it completes. */
  void advance(AtomicLong reading, long nanos) {
    lock.lock();
    try {
      reading.addAndGet(nanos);
      if (nanos == 0) {
        return;
      }
      for (Iterator<Sleeper> it = sleepers.iterator(); it.hasNext(); ) {
        Sleeper sleeper = it.next();
        if (nanos >= sleeper.remainingNanos) {
          sleeper.remainingNanos = 0;
          it.remove();
          sleeper.released.signal();
        } else {
          sleeper.remainingNanos -= nanos;
        }
      }
    } finally {
      lock.unlock();
    }
  }

  int count() {
    lock.lock();
    try {
      return sleepers.size();
    } finally {
      lock.unlock();
    }
  }

  /** Waits up to {@code timeoutNanos} of real time until at least {@code count} threads park. */
  boolean awaitAtLeast(int count, long timeoutNanos) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      long left = timeoutNanos;
      while (sleepers.size() < count) {
        if (left <= 0) {
          return false;
        }
        left = parkedMore.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }
}
