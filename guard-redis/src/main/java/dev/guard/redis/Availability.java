package dev.guard.redis;

import dev.guard.spi.TimeSource;
import dev.guard.spi.TokenService;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The circuit around the backend: counts failures in a row, backs off after {@code
 * failuresBeforeBackOff} of them, and tells the listeners once per change of availability.
 *
 * <p>States: available (the start), and unavailable from the failure that starts a back-off until
 * the next answer. During a back-off {@link #backingOff()} is true and the service answers FAILED
 * without asking; after it, the next request probes: its failure backs off again at once (the
 * count stays one short of the threshold), its answer makes the service available. Listeners run
 * under the lock, so their calls keep the order of the changes; they must be fast.
 */
final class Availability {

  private final int failuresBeforeBackOff;
  private final long backOffNanos;
  private final TimeSource clock;
  private final List<TokenService.AvailabilityListener> listeners = new CopyOnWriteArrayList<>();
  private final Object lock = new Object();
  private int failuresInARow;
  private boolean available = true;
  private volatile boolean clean = true;
  private volatile boolean backingOff;
  private volatile long backOffUntilNanos;

  Availability(int failuresBeforeBackOff, long backOffNanos, TimeSource clock) {
    this.failuresBeforeBackOff = failuresBeforeBackOff;
    this.backOffNanos = backOffNanos;
    this.clock = clock;
  }

  void addListener(TokenService.AvailabilityListener listener) {
    listeners.add(listener);
  }

  void removeListener(TokenService.AvailabilityListener listener) {
    listeners.removeIf(held -> held == listener);
  }

  boolean available() {
    synchronized (lock) {
      return available;
    }
  }

  /** Whether the service is in a back-off period (answer FAILED without asking). */
  boolean backingOff() {
    return backingOff && clock.nanoTime() - backOffUntilNanos < 0;
  }

  void failed() {
    synchronized (lock) {
      clean = false;
      failuresInARow++;
      if (failuresInARow >= failuresBeforeBackOff) {
        backOffUntilNanos = clock.nanoTime() + backOffNanos;
        backingOff = true;
        failuresInARow = failuresBeforeBackOff - 1; // the next failure after the back-off reopens
        if (available) {
          available = false;
          tell(false);
        }
      }
    }
  }

  void succeeded() {
    if (clean) {
      return; // nothing to reset: no lock on the common path
    }
    synchronized (lock) {
      failuresInARow = 0;
      backingOff = false;
      clean = true;
      if (!available) {
        available = true;
        tell(true);
      }
    }
  }

  private void tell(boolean up) {
    for (TokenService.AvailabilityListener listener : listeners) {
      try {
        listener.availabilityChanged(up);
      } catch (RuntimeException ignored) {
        // a failing listener must not fail the call
      }
    }
  }
}
